/**
 * Runs jobs with two bounds: at most `perEndpoint` at a time for one endpoint (an installation),
 * at most `overall` in all. Jobs of a slow or failing endpoint wait in that endpoint's own queue, so
 * they never take more than `perEndpoint` of the overall slots: other endpoints' jobs go on.
 * A freed slot goes to the waiting endpoint with the fewest jobs running.
 */
export class FairDispatcher {
  private running = 0;
  private readonly active = new Map<string, number>();
  private readonly queues = new Map<string, Array<() => void>>();
  /** Endpoints with queued jobs, in the order they will be served. */
  private readonly turn: string[] = [];
  private idleWaiters: Array<() => void> = [];

  constructor(private readonly limits: { overall: number; perEndpoint: number }) {}

  /** Jobs started and not finished, plus jobs waiting. */
  get load(): number {
    let queued = 0;
    for (const queue of this.queues.values()) queued += queue.length;
    return this.running + queued;
  }

  /** Queues the job; the promise settles with it. */
  run<T>(endpoint: string, job: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        this.running++;
        this.active.set(endpoint, (this.active.get(endpoint) ?? 0) + 1);
        job()
          .then(resolve, reject)
          .finally(() => this.finished(endpoint));
      };
      const queue = this.queues.get(endpoint) ?? [];
      queue.push(start);
      if (!this.queues.has(endpoint)) {
        this.queues.set(endpoint, queue);
        this.turn.push(endpoint);
      }
      this.pump();
    });
  }

  /** Resolves when nothing runs or waits. */
  idle(): Promise<void> {
    if (this.load === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private finished(endpoint: string): void {
    this.running--;
    const left = (this.active.get(endpoint) ?? 1) - 1;
    if (left === 0) this.active.delete(endpoint);
    else this.active.set(endpoint, left);
    this.pump();
    if (this.load === 0) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      waiters.forEach((wake) => wake());
    }
  }

  private pump(): void {
    // Each free slot goes to the waiting endpoint with the fewest jobs running (the first in turn
    // among equals): an endpoint that already holds slots yields to one that holds none.
    while (this.running < this.limits.overall) {
      let best = -1;
      for (let i = 0; i < this.turn.length; i++) {
        const active = this.active.get(this.turn[i]!) ?? 0;
        if (active < this.limits.perEndpoint && (best < 0 || active < (this.active.get(this.turn[best]!) ?? 0)))
          best = i;
      }
      if (best < 0) return;
      const endpoint = this.turn.splice(best, 1)[0]!;
      const queue = this.queues.get(endpoint)!;
      queue.shift()!();
      if (queue.length > 0) this.turn.push(endpoint);
      else this.queues.delete(endpoint);
    }
  }
}
