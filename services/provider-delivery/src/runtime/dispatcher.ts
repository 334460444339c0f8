import type { Logger } from '@marketplace/logging';
import type { Driver } from '../domain/driver';
import type { ProviderContext } from '../usecases/context';
import { dispatchDelivery, type DispatchStep, type FreeDrivers } from '../usecases/dispatch/dispatch-delivery';
import { listFreeDrivers } from '../usecases/dispatch/list-free-drivers';

export interface DispatcherOptions {
  /** How often the work list is read when the last read found nothing due. */
  idleMs: number;
  /** Due deliveries read and decided per round. */
  batch: number;
  /** Decisions made at once. */
  concurrency: number;
}

export const DISPATCHER_DEFAULTS: DispatcherOptions = { idleMs: 100, batch: 200, concurrency: 16 };

/**
 * The dispatch loop: reads the due deliveries (soonest first), decides each, and reads again at
 * once while there is work, else after `idleMs`. Rounds never overlap; a failed round is logged and
 * the next one runs (each decision is its own compare-and-set write, so a crash loses nothing: the
 * delivery stays due). Every instance of the service runs one; they share the work through the
 * versioned writes.
 */
export class Dispatcher {
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly ctx: ProviderContext,
    private readonly log: Logger,
    private readonly options: DispatcherOptions = DISPATCHER_DEFAULTS,
    private readonly onStep: (step: DispatchStep) => void = () => undefined,
  ) {}

  start(): void {
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.round;
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.round = this.runRound().then((busy) => this.schedule(busy ? 0 : this.options.idleMs));
    }, ms);
  }

  /** One round; true when it found a full batch (more may be due). */
  private async runRound(): Promise<boolean> {
    try {
      const due = await this.ctx.store.deliveries.dueForDispatch(this.ctx.now(), this.options.batch);
      // Each account's free drivers are read once a round and shared by its decisions: a burst of
      // deliveries would otherwise read (and decode) the whole fleet once per delivery.
      const free = new Map<string, Promise<Driver[]>>();
      const freeDrivers: FreeDrivers = (accountId) => {
        let drivers = free.get(accountId);
        if (!drivers) free.set(accountId, (drivers = listFreeDrivers(this.ctx, accountId)));
        return drivers;
      };
      let next = 0;
      const worker = async () => {
        while (next < due.length && !this.stopped) {
          const delivery = due[next++]!;
          try {
            this.onStep(await dispatchDelivery(this.ctx, delivery, freeDrivers));
          } catch (error) {
            this.log.warn(
              { err: error, providerDeliveryId: delivery.id },
              'dispatch decision failed; retried next round',
            );
          }
        }
      };
      await Promise.all(Array.from({ length: this.options.concurrency }, worker));
      return due.length === this.options.batch;
    } catch (error) {
      this.log.warn({ err: error }, 'reading the deliveries due for dispatch failed; retried');
      return false;
    }
  }
}
