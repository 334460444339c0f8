/** A small least-recently-used cache bounded by total weight (bytes, or 1 per entry). */
export class LruCache<V> {
  private readonly entries = new Map<string, { value: V; weight: number }>();
  private total = 0;

  constructor(
    private readonly maxWeight: number,
    private readonly weigh: (value: V) => number = () => 1,
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key); // re-insert: Map order is recency order
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V): void {
    const weight = this.weigh(value);
    if (weight > this.maxWeight) return;
    const old = this.entries.get(key);
    if (old) {
      this.total -= old.weight;
      this.entries.delete(key);
    }
    this.entries.set(key, { value, weight });
    this.total += weight;
    for (const [oldest, entry] of this.entries) {
      if (this.total <= this.maxWeight) break;
      this.entries.delete(oldest);
      this.total -= entry.weight;
    }
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.total -= entry.weight;
  }

  get size(): number {
    return this.entries.size;
  }
}
