import type { Logger } from '@marketplace/logging';
import type { DeliveryContext } from '../usecases/context';
import type { DispatchWork } from '../usecases/ports';
import { workDispatch } from '../usecases/dispatch/work-dispatch';

export interface ProviderDispatcherOptions {
  /** How often the work list is read when the last read found nothing due. */
  idleMs: number;
  /** Due dispatches read per round. */
  batch: number;
  /** Dispatches worked at once (each may wait up to 15 s on its provider). */
  concurrency: number;
}

export const PROVIDER_DISPATCHER_DEFAULTS: ProviderDispatcherOptions = { idleMs: 250, batch: 100, concurrency: 16 };

/**
 * The platform's dispatch loop: reads the due dispatches (soonest first) and starts working each
 * (usecases/dispatch/work-dispatch.ts: sync, create, cancel, poll) on one of `concurrency` slots,
 * without waiting for them: a provider that takes its 15 s holds one slot, never the next round.
 * A round runs after `idleMs`, at once when a slot frees or something is kicked. A failed step is
 * logged (each step is its own compare-and-set write, so a crash loses nothing: a claimed
 * dispatch is due again when its lease ends). Every instance runs one; they share the work
 * through the claims.
 */
export class ProviderDispatcher implements DispatchWork {
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<void> | undefined;
  private stopped = false;
  private kicked = false;
  private ctx: DeliveryContext | undefined;
  /** The dispatches being worked on by this process, by assignment id. */
  private readonly working = new Map<string, Promise<void>>();

  constructor(
    private readonly log: Logger,
    private readonly options: ProviderDispatcherOptions = PROVIDER_DISPATCHER_DEFAULTS,
  ) {}

  start(ctx: DeliveryContext): void {
    this.ctx = ctx;
    this.schedule(0);
  }

  /** Something is due now: run a round at once (or right after the one under way). */
  kick(): void {
    if (!this.ctx || this.stopped) return;
    if (this.round) {
      this.kicked = true;
      return;
    }
    this.schedule(0);
  }

  /** Starts nothing more, and waits for the dispatches under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.round;
    await Promise.all(this.working.values());
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.round = this.runRound().then((full) => {
        this.round = undefined;
        const again = full || this.kicked;
        this.kicked = false;
        this.schedule(again ? 0 : this.options.idleMs);
      });
    }, ms);
    this.timer.unref();
  }

  /** One round: starts the due dispatches that fit in the free slots; true when it filled them all. */
  private async runRound(): Promise<boolean> {
    const ctx = this.ctx!;
    const free = this.options.concurrency - this.working.size;
    if (free <= 0) return false; // a slot freeing kicks the next round
    try {
      const due = await ctx.store.dispatches.dueForWork(
        ctx.now(),
        Math.min(this.options.batch, free + this.working.size),
      );
      const fresh = due.filter((d) => !this.working.has(d._id)).slice(0, free);
      for (const dispatch of fresh) {
        const work = workDispatch(ctx, dispatch)
          .then(() => undefined)
          .catch((error: unknown) => {
            this.log.warn(
              { err: error, assignmentId: dispatch._id },
              'provider dispatch step failed; retried when due',
            );
          })
          .finally(() => {
            this.working.delete(dispatch._id);
            this.kick();
          });
        this.working.set(dispatch._id, work);
      }
      return fresh.length === free;
    } catch (error) {
      this.log.warn({ err: error }, 'provider dispatch round failed; the next one runs');
      return false;
    }
  }
}
