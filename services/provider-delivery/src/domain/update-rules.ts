import { PROVIDER_UPDATE_FIELDS, type ProviderUpdateDeliveryRequest } from '@marketplace/contracts';
import type { FieldErrors } from '@marketplace/errors';
import { servesPoint } from './create-rules';
import { toMinorUnits, type DeliveryOrder } from './delivery';
import { isTerminal, mayUpdate, type Status, type UpdateField } from './lifecycle';
import type { PlatformAccount } from './platform-account';

type SubmittedField = (typeof PROVIDER_UPDATE_FIELDS)[number];

/** What PATCH does: the order's new values, one answer per submitted field, and why any was refused. */
export interface UpdatePlan {
  changes: Partial<DeliveryOrder>;
  fieldAccepted: Partial<Record<SubmittedField, boolean>>;
  reasons: string[];
}

const GROUP: Record<SubmittedField, UpdateField> = {
  dropoffAddress: 'dropoff',
  dropoffLat: 'dropoff',
  dropoffLng: 'dropoff',
  customerPhone: 'customerPhone',
  scheduledDeliveryAtUtc: 'scheduledDeliveryAtUtc',
  notes: 'notes',
  customerName: 'customerName',
  customerEmail: 'customerEmail',
  amount: 'amount',
  currency: 'currency',
  paymentMethod: 'paymentMethod',
  deliveryFeeAmount: 'deliveryFeeAmount',
  preparationTimeMinutes: 'preparationTimeMinutes',
};

const WHEN: Record<UpdateField, string> = {
  dropoff: 'the drop-off changes only before pickup',
  amount: 'money changes only before pickup',
  currency: 'money changes only before pickup',
  paymentMethod: 'money changes only before pickup',
  deliveryFeeAmount: 'money changes only before pickup',
  preparationTimeMinutes: 'the preparation time changes only before a driver is assigned',
  scheduledDeliveryAtUtc: 'the scheduled time changes only before a driver is assigned',
  customerPhone: 'nothing changes during a return',
  customerName: 'nothing changes during a return',
  customerEmail: 'nothing changes during a return',
  notes: 'nothing changes during a return',
};

/** Why `group` cannot change in `status`: a terminal delivery says so, else the field's rule. */
const refusal = (group: UpdateField, status: Status): string =>
  isTerminal(status) ? `the delivery is ${status.replace(/_/g, ' ')}` : WHEN[group];

/** Money with more than two decimals is invalid (422), whatever the status. */
export function updateFieldErrors(request: ProviderUpdateDeliveryRequest): FieldErrors {
  const errors: FieldErrors = {};
  for (const field of ['amount', 'deliveryFeeAmount'] as const) {
    const value = request[field];
    if (typeof value === 'number' && toMinorUnits(value) === undefined)
      errors[field] = ['must have at most two decimals'];
  }
  return errors;
}

/**
 * The outcome of a PATCH for a delivery in `status` (pure; the table is lifecycle.ts `mayUpdate`):
 * - a field sent as null is left as it is, as asked: `true`;
 * - the drop-off trio is one change with one answer on its three fields, refused also when the
 *   new drop-off lies outside the account's service area;
 * - `scheduledDeliveryAtUtc` also needs the scheduled-delivery capability;
 * - a refused field is `false`, and `reasons` says why (the answer's errorMessage).
 */
export function planUpdate(
  account: PlatformAccount,
  status: Status,
  request: ProviderUpdateDeliveryRequest,
): UpdatePlan {
  const plan: UpdatePlan = { changes: {}, fieldAccepted: {}, reasons: [] };
  const refuse = (fields: readonly SubmittedField[], reason: string) => {
    for (const field of fields) plan.fieldAccepted[field] = false;
    if (!plan.reasons.includes(reason)) plan.reasons.push(reason);
  };
  for (const field of PROVIDER_UPDATE_FIELDS) {
    if (!(field in request) || field in plan.fieldAccepted) continue;
    const value = request[field];
    if (value === null || value === undefined) {
      plan.fieldAccepted[field] = true;
      continue;
    }
    const group = GROUP[field];
    if (group === 'dropoff') {
      const trio = (['dropoffAddress', 'dropoffLat', 'dropoffLng'] as const).filter((f) => f in request);
      const { dropoffAddress, dropoffLat, dropoffLng } = request as Required<ProviderUpdateDeliveryRequest>;
      if (!mayUpdate('dropoff', status)) refuse(trio, refusal('dropoff', status));
      else if (!servesPoint(account, dropoffLat!, dropoffLng!))
        refuse(trio, 'the new drop-off lies outside the service area');
      else {
        Object.assign(plan.changes, { dropoffAddress, dropoffLat, dropoffLng });
        for (const f of trio) plan.fieldAccepted[f] = true;
      }
      continue;
    }
    if (group === 'scheduledDeliveryAtUtc' && !account.capabilities.supportsScheduledDelivery) {
      refuse([field], 'scheduled delivery is not enabled for the account');
      continue;
    }
    if (!mayUpdate(group, status)) {
      refuse([field], refusal(group, status));
      continue;
    }
    plan.fieldAccepted[field] = true;
    if (field === 'amount') plan.changes.amountMinor = toMinorUnits(value as number)!;
    else if (field === 'deliveryFeeAmount') plan.changes.deliveryFeeMinor = toMinorUnits(value as number)!;
    else if (field === 'scheduledDeliveryAtUtc') plan.changes.scheduledDeliveryAtUtc = new Date(value);
    else Object.assign(plan.changes, { [field]: value });
  }
  return plan;
}
