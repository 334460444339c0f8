import { TestAborted, TestFailure } from './outcomes';

/**
 * A test's sleeps and polls. They end at once when the test is stopped (its time is over), so a
 * test past its time holds no timer and stops at its next wait.
 */
export class Sleeper {
  private aborted = false;
  private readonly sleeping = new Set<() => void>();

  get isAborted(): boolean {
    return this.aborted;
  }

  abort(): void {
    this.aborted = true;
    for (const wake of [...this.sleeping]) wake();
  }

  async sleep(ms: number): Promise<void> {
    if (this.aborted) throw new TestAborted();
    await new Promise<void>((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.sleeping.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.sleeping.add(wake);
    });
    if (this.aborted) throw new TestAborted();
  }

  /** Polls `probe` until it gives a value other than undefined; fails naming `what` after `timeoutMs`. */
  async waitUntil<T>(
    what: string,
    probe: () => Promise<T | undefined> | T | undefined,
    timeoutMs: number,
    everyMs = 250,
  ): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await probe();
      if (value !== undefined) return value;
      if (Date.now() >= deadline) throw new TestFailure(`${what} not reached within ${Math.round(timeoutMs / 1000)} s`);
      await this.sleep(everyMs);
    }
  }
}
