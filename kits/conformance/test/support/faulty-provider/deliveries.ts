import { randomUUID } from 'node:crypto';
import type { UpdateField } from '../../../src/model';
import { inServiceArea, updateAllowed } from './declaration';
import { type Answer, invalid, malformed, notFound, parseJson } from './http';
import { trackingFields, type Delivery } from './sandbox';
import type { ProviderState } from './state';
import { checkCallbackUrl, DROPOFF_FIELDS, isPlainObject, UPDATE_CHECKS, validateUpdate } from './validation';
import { sign } from './webhooks';

/** The handlers of one delivery ("Status and tracking", "Update", "Cancel and return") and the webhook test. */

const iso = (ms: number): string => new Date(ms).toISOString();

export function readStatus(state: ProviderState, id: string): Answer {
  const delivery = state.sandbox.deliveries.get(id);
  if (delivery === undefined) {
    // The defect answers an unknown delivery as if it existed.
    if (state.defects.has('unknownDeliveryOk'))
      return { status: 200, body: { status: 'provider_accepted', eventTimeUtc: iso(Date.now()) } };
    return notFound();
  }
  return { status: 200, body: { status: delivery.status, eventTimeUtc: iso(delivery.lastEventMs) } };
}

export function readTracking(state: ProviderState, id: string): Answer {
  const delivery = state.sandbox.deliveries.get(id);
  if (delivery === undefined) return notFound();
  return { status: 200, body: { ...trackingFields(delivery), eventTimeUtc: iso(delivery.lastEventMs) } };
}

type ObjectBody = { body: Record<string, unknown>; refusal?: undefined } | { refusal: Answer };

/** Parses a JSON object body, or says why not (400 not JSON, 422 not an object). */
function objectBody(text: string): ObjectBody {
  const json = parseJson(text);
  if (!json.ok) return { refusal: malformed() };
  return isPlainObject(json.value) ? { body: json.value } : { refusal: invalid('The body must be a JSON object.') };
}

/** The update-rule group of a PATCH field (the drop-off's three fields are one change). */
const groupOf = (field: string): UpdateField =>
  (DROPOFF_FIELDS as readonly string[]).includes(field) ? 'dropoff' : (field as UpdateField);

/**
 * PATCH: invalid values are 422; a valid field is accepted where the declaration's update rules
 * allow it in the current status (and a drop-off inside the service area), false otherwise. A null
 * leaves the field and is answered like a value; an unknown field is false.
 */
export function updateDelivery(state: ProviderState, id: string, text: string): Answer {
  const delivery = state.sandbox.deliveries.get(id);
  if (delivery === undefined) return notFound();
  const parsed = objectBody(text);
  if (parsed.refusal) return parsed.refusal;
  const body = parsed.body;
  const fieldErrors = validateUpdate(body);
  if (Object.keys(fieldErrors).length > 0) return invalid('Some fields are invalid.', fieldErrors);
  const dropoffInside =
    typeof body.dropoffLat !== 'number' || inServiceArea(body.dropoffLat, body.dropoffLng as number);
  const fieldAccepted: Record<string, boolean> = {};
  for (const [field, value] of Object.entries(body)) {
    const known = UPDATE_CHECKS[field] !== undefined;
    const accepted =
      known && updateAllowed(groupOf(field), delivery.status) && (groupOf(field) !== 'dropoff' || dropoffInside);
    fieldAccepted[field] = accepted;
    if (accepted && value !== null && value !== undefined) delivery.fields[field] = value;
  }
  const refused = Object.keys(fieldAccepted).filter((field) => !fieldAccepted[field]);
  const errorMessage =
    refused.length > 0 ? `Not changeable in status ${delivery.status}: ${refused.join(', ')}.` : null;
  return { status: 200, body: { fieldAccepted, errorMessage } };
}

export function cancelDelivery(state: ProviderState, id: string, text: string): Answer {
  const parsed = objectBody(text);
  if (parsed.refusal) return parsed.refusal;
  const body = parsed.body;
  const delivery = state.sandbox.deliveries.get(id);
  if (delivery === undefined) return notFound();
  if (body.stage !== 'before_pickup' && body.stage !== 'after_pickup') {
    return invalid('stage must be before_pickup or after_pickup.', {
      stage: ['must be before_pickup or after_pickup'],
    });
  }
  return { status: 200, body: state.sandbox.cancel(delivery, body.stage) };
}

export function returnDelivery(state: ProviderState, id: string, text: string): Answer {
  const parsed = objectBody(text);
  if (parsed.refusal) return parsed.refusal;
  const body = parsed.body;
  const delivery: Delivery | undefined = state.sandbox.deliveries.get(id);
  if (delivery === undefined) return notFound();
  if (typeof body.reasonCode !== 'string' || body.reasonCode.trim() === '') {
    return invalid('reasonCode is required.', { reasonCode: ['is required'] });
  }
  return { status: 200, body: state.sandbox.requestReturn(delivery) };
}

/** POST /webhooks/test: `{url?}` → one signed webhook.test event to the url (nothing without one). */
export async function testWebhook(state: ProviderState, text: string): Promise<Answer> {
  const parsed: ObjectBody = text.trim() === '' ? { body: {} } : objectBody(text);
  if (parsed.refusal) return parsed.refusal;
  const body = parsed.body;
  const testId = `fp-test-${randomUUID()}`;
  if (body.url === undefined || body.url === null)
    return { status: 200, body: { testId, delivered: false, responseStatus: null } };
  const problem = checkCallbackUrl(body.url);
  if (problem !== undefined) return invalid(`url ${problem}.`, { url: [problem] });
  const event = Buffer.from(
    JSON.stringify({ eventType: 'webhook.test', testId, eventTimeUtc: iso(Date.now()) }),
    'utf8',
  );
  const responseStatus = await state.sender.sendOnce(body.url as string, event, sign(event, state.webhookSecret));
  const delivered = responseStatus !== null && responseStatus >= 200 && responseStatus < 300;
  return { status: 200, body: { testId, delivered, responseStatus } };
}
