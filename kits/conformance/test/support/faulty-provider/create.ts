import { randomUUID } from 'node:crypto';
import { inServiceArea } from './declaration';
import { type Answer, errorAnswer, invalid, malformed, parseJson } from './http';
import { newRide, type Delivery } from './sandbox';
import type { IdempotencyRecord, ProviderState } from './state';
import { isPlainObject, validateCreate } from './validation';

/** A preparation this long (or a schedule this far ahead) keeps a delivery before pickup. */
const HOLD_MINUTES = 60;
/** The durable write a real provider makes between looking a key up and storing it: where a race without a lock shows. */
const STORAGE_WRITE_MS = 20;

/** POST /deliveries ("Create delivery"): validate, then create or replay under the idempotency key. */
export async function createDelivery(state: ProviderState, text: string): Promise<Answer> {
  const json = parseJson(text);
  if (!json.ok) return malformed();
  if (!isPlainObject(json.value)) return invalid('The body must be a JSON object.');
  const body = json.value;
  const fieldErrors = validateCreate(body);
  if (Object.keys(fieldErrors).length > 0) return invalid('Some fields are invalid.', fieldErrors);
  const key = body.idempotencyKey as string;
  // The defect drops the per-key lock: concurrent identical creates each make a delivery.
  if (state.defects.has('concurrentReplayDuplicates')) return createOnce(state, body);
  return state.locks.run(key, () => createOnce(state, body));
}

async function createOnce(state: ProviderState, body: Record<string, unknown>): Promise<Answer> {
  const key = body.idempotencyKey as string;
  const existing = state.idempotency.get(key);
  if (existing !== undefined) return replay(existing, body);
  await new Promise((resolve) => setTimeout(resolve, STORAGE_WRITE_MS));
  const record: IdempotencyRecord = {
    fingerprint: fingerprint(body),
    callbackUrl: callbackOf(body),
    answer: decide(state, body),
  };
  state.idempotency.set(key, record);
  return { status: 200, body: record.answer };
}

/** "Create" rules 2 and 3: the original answer, or 409 for a changed payload or callback (an omitted webhook keeps it). */
function replay(record: IdempotencyRecord, body: Record<string, unknown>): Answer {
  const webhookSent = body.webhook !== undefined && body.webhook !== null;
  if (webhookSent && callbackOf(body) !== record.callbackUrl) {
    return errorAnswer(409, 'callback_conflict', 'This idempotency key was used with another callback URL.');
  }
  if (fingerprint(body) !== record.fingerprint) {
    return errorAnswer(409, 'idempotency_conflict', 'This idempotency key was used with another request.');
  }
  return { status: 200, body: record.answer };
}

/** Accepts inside the service area (a business rejection otherwise) and starts the delivery. */
function decide(state: ProviderState, body: Record<string, unknown>): Record<string, unknown> {
  const inside =
    inServiceArea(body.pickupLat as number, body.pickupLng as number) &&
    inServiceArea(body.dropoffLat as number, body.dropoffLng as number);
  if (!inside) return { accepted: false, providerDeliveryId: '', rejectionReason: 'outside_service_area' };
  const id = `fp-${randomUUID()}`;
  const trackingId = `fpt-${randomUUID().slice(0, 8)}`;
  const delivery: Delivery = {
    id,
    trackingId,
    platformReference: body.platformReference as string,
    callbackUrl: callbackOf(body),
    fields: { ...body },
    status: 'provider_accepted',
    held: isHeld(body),
    plan: newRide(),
    driver: null,
    trackingUrl: `https://track.faulty-provider.test/${trackingId}`,
    estimatedDeliveryAtUtc: null,
    lastEventMs: 0,
  };
  state.sandbox.add(delivery);
  return { accepted: true, providerDeliveryId: id, providerTrackingId: trackingId };
}

function isHeld(body: Record<string, unknown>): boolean {
  const scheduled = typeof body.scheduledDeliveryAtUtc === 'string' ? Date.parse(body.scheduledDeliveryAtUtc) : NaN;
  return (body.preparationTimeMinutes as number) >= HOLD_MINUTES || scheduled > Date.now() + HOLD_MINUTES * 60_000;
}

const callbackOf = (body: Record<string, unknown>): string | null => {
  const webhook = body.webhook as { url?: unknown } | null | undefined;
  return typeof webhook?.url === 'string' ? webhook.url : null;
};

/** Compatible replays (another key order, 23.50 for 23.5, a null for an absent optional field) compare equal. */
function fingerprint(body: Record<string, unknown>): string {
  const entries = Object.entries(body)
    .filter(([field, value]) => field !== 'webhook' && value !== null && value !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return JSON.stringify(entries);
}
