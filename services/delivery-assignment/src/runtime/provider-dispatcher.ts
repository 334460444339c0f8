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
 * The platform's dispatch loop: reads the due dispatches (soonest first) and works each
 * (usecases/dispatch/work-dispatch.ts: sync, create, cancel, poll), then reads again at once while
 * a round was full, else after `idleMs` or as soon as something is kicked. Rounds never overlap; a
 * failed one is logged and the next runs (each step is its own compare-and-set write, so a crash
 * loses nothing: a claimed dispatch is due again when its lease ends). Every instance runs one;
 * they share the work through the claims.
 */
export class ProviderDispatcher implements DispatchWork {
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<void> | undefined;
  private stopped = false;
  private kicked = false;
  private ctx: DeliveryContext | undefined;

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
    clearTimeout(this.timer);
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.round;
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.round = this.runRound().then((busy) => {
        this.round = undefined;
        const again = busy || this.kicked;
        this.kicked = false;
        this.schedule(again ? 0 : this.options.idleMs);
      });
    }, ms);
    this.timer.unref();
  }

  /** One round; true when it found a full batch (more may be due). */
  private async runRound(): Promise<boolean> {
    const ctx = this.ctx!;
    try {
      const due = await ctx.store.dispatches.dueForWork(ctx.now(), this.options.batch);
      let next = 0;
      const worker = async () => {
        while (next < due.length && !this.stopped) {
          const dispatch = due[next++]!;
          try {
            await workDispatch(ctx, dispatch);
          } catch (error) {
            this.log.warn(
              { err: error, assignmentId: dispatch._id },
              'provider dispatch step failed; retried when due',
            );
          }
        }
      };
      await Promise.all(Array.from({ length: this.options.concurrency }, worker));
      return due.length === this.options.batch;
    } catch (error) {
      this.log.warn({ err: error }, 'provider dispatch round failed; the next one runs');
      return false;
    }
  }
}
