/**
 * Offsets of one partition as a consumer that finishes messages out of order sees them: which it
 * has read, which are unfinished (waiting for their due time or in flight), and the offset it may
 * commit: never past the oldest unfinished one, so a restart reads that one again.
 *
 * Offsets are begun in increasing order (the order they are read), so the unfinished ones form a
 * queue whose head is the oldest: finding it is amortised O(1) however many wait.
 */
export class PartitionProgress {
  private readonly unfinished = new Set<bigint>();
  /** Begun offsets in increasing order; those finished are skipped lazily from the head. */
  private readonly order: bigint[] = [];
  private head = 0;
  private next: bigint | undefined;
  private lastCommitted: bigint | undefined;

  /** Whether the offset was read before (it is unfinished or finished). */
  hasRead(offset: bigint): boolean {
    return this.next !== undefined && offset < this.next;
  }

  begin(offset: bigint): void {
    if (this.hasRead(offset)) throw new RangeError(`offset ${offset} was begun already (next is ${this.next})`);
    this.unfinished.add(offset);
    this.order.push(offset);
    this.next = offset + 1n;
  }

  end(offset: bigint): void {
    this.unfinished.delete(offset);
  }

  get unfinishedCount(): number {
    return this.unfinished.size;
  }

  /** The oldest unfinished offset, else the one after the newest read; undefined before any read. */
  committable(): bigint | undefined {
    while (this.head < this.order.length && !this.unfinished.has(this.order[this.head]!)) this.head++;
    if (this.head > 1024 && this.head * 2 > this.order.length) {
      this.order.splice(0, this.head);
      this.head = 0;
    }
    return this.head < this.order.length ? this.order[this.head] : this.next;
  }

  /** The committable offset when it differs from the last one committed (else undefined). */
  toCommit(): bigint | undefined {
    const offset = this.committable();
    return offset === this.lastCommitted ? undefined : offset;
  }

  committed(offset: bigint): void {
    if (this.lastCommitted === undefined || offset > this.lastCommitted) this.lastCommitted = offset;
  }
}
