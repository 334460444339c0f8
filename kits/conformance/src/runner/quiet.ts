import type { CallbackReceiver } from '../receiver/callback-receiver';

export const QUIET_MS = 3_000;
export const QUIET_MAX_MS = 30_000;

/**
 * Waits until no callback arrived for `quietMs` (at most `maxMs`), so the `after` tests judge
 * every event the main tests' deliveries caused, late ones included.
 */
export async function waitForQuiet(
  receiver: CallbackReceiver,
  quietMs = QUIET_MS,
  maxMs = QUIET_MAX_MS,
): Promise<void> {
  const deadline = Date.now() + maxMs;
  for (;;) {
    const quietFor = Date.now() - receiver.lastArrivalAt;
    if (quietFor >= quietMs || Date.now() >= deadline) return;
    await new Promise((resolve) => setTimeout(resolve, Math.min(quietMs - quietFor, deadline - Date.now(), 250) + 1));
  }
}
