import type { Exchange, Status } from '../model';
import { isStatus, isTerminal, RFC3339 } from '../spec';
import type { CallbackBox, CallbackEvent, ProviderClient, TrackedDelivery } from '../test-api';
import { StatusNeverReached, TestAborted, TestFailure } from './outcomes';

export const POLL_EVERY_MS = 300;

export interface TrackedDeliverySettings {
  platformReference: string;
  providerDeliveryId: string;
  request: Record<string, unknown>;
  callback: CallbackBox | null;
  provider: ProviderClient;
  supportsPolling: boolean;
  lifecycleTimeoutMs: number;
  isAborted: () => boolean;
}

/** The newest recognized status among a delivery's events (by event time, then arrival). */
export function latestEventStatus(events: CallbackEvent[]): Status | null {
  let latest: { status: Status; time: number } | null = null;
  for (const { event } of events) {
    const status = event?.status;
    if (!isStatus(status)) continue;
    const stamp =
      typeof event?.eventTimeUtc === 'string' && RFC3339.test(event.eventTimeUtc) ? Date.parse(event.eventTimeUtc) : 0;
    if (latest === null || stamp >= latest.time) latest = { status, time: stamp };
  }
  return latest?.status ?? null;
}

export function createTrackedDelivery(settings: TrackedDeliverySettings): TrackedDelivery {
  const { provider, callback } = settings;
  const statusPath = `/deliveries/${encodeURIComponent(settings.providerDeliveryId)}/status`;

  const readStatus = async (): Promise<{ status: Status | null; eventTimeUtc: string | null; exchange: Exchange }> => {
    const exchange = await provider.call('GET', statusPath);
    const json = exchange.status === 200 ? (exchange.json as Record<string, unknown> | undefined) : undefined;
    return {
      status: isStatus(json?.status) ? json.status : null,
      eventTimeUtc: typeof json?.eventTimeUtc === 'string' ? json.eventTimeUtc : null,
      exchange,
    };
  };

  // Polling is the authoritative read when the provider offers it; otherwise the callbacks are all there is.
  const currentStatus = async (): Promise<Status | null> =>
    settings.supportsPolling ? (await readStatus()).status : latestEventStatus(callback?.events() ?? []);

  const waitForStatus = async (statuses: readonly Status[], what: string): Promise<Status> => {
    if (!settings.supportsPolling && !callback)
      throw new TestFailure(`${what}: the delivery has neither polling nor a callback to watch`);
    const deadline = Date.now() + settings.lifecycleTimeoutMs;
    let last: Status | null = null;
    for (;;) {
      last = (await currentStatus()) ?? last;
      if (last !== null && statuses.includes(last)) return last;
      // Nothing follows a terminal status: waiting on would only run out the clock.
      if (last !== null && isTerminal(last))
        throw new StatusNeverReached(`${what} not reached: the delivery ended in ${last}`, last);
      if (settings.isAborted()) throw new TestAborted();
      if (Date.now() >= deadline) {
        throw new TestFailure(
          `${what} not reached within ${Math.round(settings.lifecycleTimeoutMs / 1000)} s (last status ${last ?? 'unknown'})`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_EVERY_MS));
    }
  };

  return {
    platformReference: settings.platformReference,
    providerDeliveryId: settings.providerDeliveryId,
    request: settings.request,
    callback,
    readStatus,
    waitForStatus,
  };
}
