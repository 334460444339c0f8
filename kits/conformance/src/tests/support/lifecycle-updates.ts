import type { Declaration, Exchange, Outcome, Status, UpdateField } from '../../model';
import { isEnvelope, isRecord } from './checks';

/**
 * PATCH by field group ("Update delivery request"; the update rules of a declaration): one request
 * per group, with values that change nothing of substance (the drop-off, the amount and the times
 * the delivery already has), so a delivery goes on as it was whatever the provider accepts.
 */

export interface UpdateProbe {
  group: UpdateField;
  body: Record<string, unknown>;
}

const DAY_MS = 24 * 60 * 60_000;

/**
 * The PATCH body of each field group the declaration gives rules for. Values come from the create
 * request; where it had none (a fee, notes), a harmless one; the scheduled time lies a day beyond
 * the sandbox's hold, so a held delivery stays held.
 */
export function updateProbes(
  declaration: Declaration,
  request: Record<string, unknown>,
  now = Date.now(),
): UpdateProbe[] {
  const fee = typeof request.deliveryFeeAmount === 'number' ? request.deliveryFeeAmount : 0;
  const scheduled = new Date(now + declaration.sandbox.holdPreparationMinutes * 60_000 + DAY_MS).toISOString();
  const bodies: Record<UpdateField, Record<string, unknown>> = {
    dropoff: { dropoffAddress: request.dropoffAddress, dropoffLat: request.dropoffLat, dropoffLng: request.dropoffLng },
    customerPhone: { customerPhone: request.customerPhone },
    customerName: { customerName: request.customerName },
    customerEmail: { customerEmail: 'customer@example.com' },
    notes: { notes: typeof request.notes === 'string' ? request.notes : 'sdp-conformance' },
    amount: { amount: request.amount },
    currency: { currency: request.currency },
    paymentMethod: { paymentMethod: request.paymentMethod },
    deliveryFeeAmount: { deliveryFeeAmount: fee },
    preparationTimeMinutes: { preparationTimeMinutes: request.preparationTimeMinutes },
    scheduledDeliveryAtUtc: { scheduledDeliveryAtUtc: scheduled },
  };
  const groups = Object.keys(declaration.updates ?? {}) as UpdateField[];
  return groups.map((group) => ({ group, body: bodies[group] }));
}

/**
 * What a group's answer says: accepted when 200 with `true` for each submitted field, refused when
 * 200 with `false` for each or a 422 error envelope; a problem otherwise (fields answered
 * differently, a missing boolean, another status).
 */
export function groupOutcome(
  exchange: Exchange,
  fields: readonly string[],
): { outcome: Outcome } | { problem: string } {
  if (exchange.status === 422 && isEnvelope(exchange.json)) return { outcome: 'refused' };
  if (exchange.status !== 200) return { problem: 'expected 200 with fieldAccepted (or a 422 error envelope)' };
  const accepted = isRecord(exchange.json) ? exchange.json.fieldAccepted : undefined;
  if (!isRecord(accepted)) return { problem: '200 without a fieldAccepted object' };
  const values = fields.map((f) => accepted[f]);
  if (!values.every((v) => typeof v === 'boolean'))
    return { problem: `fieldAccepted lacks a boolean for ${fields.join(', ')}` };
  if (new Set(values).size > 1)
    return { problem: `fieldAccepted answers ${fields.join(', ')} differently, though they are one change` };
  return { outcome: values[0] ? 'confirmed' : 'refused' };
}

/** The declared outcome of a group in a status: accepted (`confirmed`) exactly where the declaration lists the status. */
export const declaredUpdate =
  (declaration: Declaration, group: UpdateField) =>
  (status: Status): Outcome =>
    (declaration.updates?.[group] ?? []).includes(status) ? 'confirmed' : 'refused';

export const showUpdate = (outcome: Outcome): string => (outcome === 'confirmed' ? 'accepted' : 'refused');
