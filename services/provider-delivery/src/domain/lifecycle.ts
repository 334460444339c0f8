import {
  isTerminalStatus,
  PROVIDER_STATUSES,
  PROVIDER_TRANSITIONS,
  TERMINAL_STATUSES,
  type ProviderEventTypeName,
  type ProviderStatusName,
} from '@marketplace/contracts';

/**
 * A provider delivery's lifecycle: the contract's status vocabulary, every allowed move between
 * statuses (the spec leaves the table to the provider: this is ours, in one place, enforced here
 * and documented in the README and the OpenAPI document), the event each move sends, and the
 * outcomes of cancel, return and update in every state. Pure: the use cases ask, then write.
 *
 * The rules the spec fixes: nothing is emitted outside the vocabulary; after a terminal status no
 * event of the delivery is sent again; the platform ignores regressions, so no move goes back.
 */

/** The vocabulary, the terminal statuses and the table of moves are the contract's (shared/contracts/src/http/provider.ts), which the OpenAPI document shows. */
export const STATUSES = PROVIDER_STATUSES;
export type Status = ProviderStatusName;
export const TERMINAL: readonly Status[] = TERMINAL_STATUSES;
export const isTerminal = isTerminalStatus;

/** Before the goods are with the driver. */
const BEFORE_PICKUP: readonly Status[] = [
  'sent_to_provider',
  'provider_accepted',
  'driver_assigned',
  'arrived_at_pickup',
];
/** The goods are with the driver, on the way to the customer. */
const CARRYING: readonly Status[] = ['picked_up', 'on_the_way'];
const RETURNING: readonly Status[] = ['return_requested', 'returning_to_origin'];

/**
 * Every allowed move, from each status. Forward only; `driver_assigned` → `driver_assigned` is a
 * new driver (the event says who). A failure is a real provider decision (no driver took it, the
 * customer could not be reached) and may end any nonterminal state but a return, which ends in
 * `return_failed` instead.
 */
export const TRANSITIONS = PROVIDER_TRANSITIONS;

export const canMove = (from: Status, to: Status): boolean => TRANSITIONS[from].includes(to);

/**
 * The event a move to `status` sends. The contract's table names events for accepted, driver,
 * pickup, delivered, cancelled and failed; the statuses it gives no event (at the pickup, on the
 * way, the return's) get event types of their own, which the versioning rules allow (a new
 * optional event type is a backward-compatible change) and the OpenAPI document lists.
 */
export const EVENT_OF_STATUS: Readonly<Record<Exclude<Status, 'sent_to_provider'>, ProviderEventTypeName>> = {
  provider_accepted: 'delivery.accepted',
  driver_assigned: 'driver.assigned',
  arrived_at_pickup: 'driver.arrived_at_pickup',
  picked_up: 'delivery.picked_up',
  on_the_way: 'delivery.on_the_way',
  delivered: 'delivery.delivered',
  cancelled: 'delivery.cancelled',
  failed: 'delivery.failed',
  return_requested: 'delivery.return_requested',
  returning_to_origin: 'delivery.returning_to_origin',
  returned_to_origin: 'delivery.returned_to_origin',
  return_failed: 'delivery.return_failed',
};

/** Events that report news without a status change carry the current status, which must not be terminal. */
export const UPDATE_EVENTS = ['driver.location_updated', 'eta.updated', 'tracking.updated'] as const;
export const mayReport = (status: Status): boolean => !isTerminal(status);

export type CancelStage = 'before_pickup' | 'after_pickup';

/** What POST cancel does in a status: the move (if any) and the answer. */
export type CancelOutcome =
  | { confirmed: true; to: 'cancelled' | null; errorMessage: null }
  | { confirmed: false; to: null; errorMessage: string };

/**
 * Cancellation outcomes (the spec asks for pending, accepted, picked-up, final and unknown; unknown
 * is the use case's 404):
 * - before pickup (recorded, accepted, driver assigned or at the pickup): cancelled, whatever the
 *   stage said (cancelling before pickup is always possible);
 * - with the driver (picked up, on the way): cancelled when the stage says `after_pickup` (the
 *   platform knows the goods are gone; bringing them back is a return); refused with
 *   `before_pickup`, which describes a delivery that no longer exists;
 * - during a return: refused (the return is already the way back);
 * - cancelled already: confirmed again, nothing moves (repeating a cancel is idempotent);
 * - delivered, failed, returned or return failed: refused, with the reason.
 */
export function cancelOutcome(status: Status, stage: CancelStage): CancelOutcome {
  if (status === 'cancelled') return { confirmed: true, to: null, errorMessage: null };
  if (BEFORE_PICKUP.includes(status)) return { confirmed: true, to: 'cancelled', errorMessage: null };
  if (CARRYING.includes(status))
    return stage === 'after_pickup'
      ? { confirmed: true, to: 'cancelled', errorMessage: null }
      : {
          confirmed: false,
          to: null,
          errorMessage: 'The goods were picked up: cancel with stage after_pickup, or request a return.',
        };
  if (RETURNING.includes(status))
    return { confirmed: false, to: null, errorMessage: 'A return to origin is under way.' };
  return { confirmed: false, to: null, errorMessage: `The delivery is ${status.replace(/_/g, ' ')} already.` };
}

/** What POST return does (only with supportsReturnToOrigin; the use case checks the capability). */
export type ReturnOutcome =
  | { accepted: true; to: 'return_requested' | null; errorMessage: null }
  | { accepted: false; to: null; errorMessage: string };

/** A return starts from the goods being with the driver; one already under way is accepted again. */
export function returnOutcome(status: Status): ReturnOutcome {
  if (CARRYING.includes(status)) return { accepted: true, to: 'return_requested', errorMessage: null };
  if (RETURNING.includes(status)) return { accepted: true, to: null, errorMessage: null };
  if (BEFORE_PICKUP.includes(status))
    return { accepted: false, to: null, errorMessage: 'Nothing was picked up yet: cancel the delivery instead.' };
  return { accepted: false, to: null, errorMessage: `The delivery is ${status.replace(/_/g, ' ')} already.` };
}

/** Fields PATCH may change, grouped as the spec and our rules treat them. */
export type UpdateField =
  | 'dropoff'
  | 'customerPhone'
  | 'customerName'
  | 'customerEmail'
  | 'notes'
  | 'amount'
  | 'currency'
  | 'paymentMethod'
  | 'deliveryFeeAmount'
  | 'preparationTimeMinutes'
  | 'scheduledDeliveryAtUtc';

/**
 * Whether PATCH may change the field in the status (false becomes `fieldAccepted: false`):
 * - nothing changes once the delivery is terminal or returning;
 * - the drop-off (address and coordinates together) until the goods are picked up (the spec's own
 *   example of a refusal: a new drop-off after pickup);
 * - the preparation time and the scheduled time until a driver is assigned (dispatch planned with
 *   them); the scheduled time also needs the scheduled-delivery capability (the use case checks);
 * - money (amount, currency, payment method, delivery fee) until pickup (the driver may collect it);
 * - the customer's name, phone, e-mail and notes while the delivery goes on.
 */
export function mayUpdate(field: UpdateField, status: Status): boolean {
  if (isTerminal(status) || RETURNING.includes(status)) return false;
  switch (field) {
    case 'preparationTimeMinutes':
    case 'scheduledDeliveryAtUtc':
      return status === 'sent_to_provider' || status === 'provider_accepted';
    case 'dropoff':
    case 'amount':
    case 'currency':
    case 'paymentMethod':
    case 'deliveryFeeAmount':
      return BEFORE_PICKUP.includes(status);
    default:
      return true;
  }
}
