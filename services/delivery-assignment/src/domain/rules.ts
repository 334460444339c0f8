import { AppError, conflict, notFound } from '@marketplace/errors';
import {
  ACTIVE_STATUSES,
  LIVE_STATUSES,
  type Assignment,
  type AssignmentStatusName,
  type Delivery,
  type Pickup,
} from './delivery';

/**
 * Every rule of an order's delivery, without I/O: a use case reads the delivery, asks one of these
 * what happens, and writes the answer with a compare-and-set (see usecases/change-delivery.ts).
 *
 * The spec's table, and what it leaves to us (documented in the README and the OpenAPI documents):
 * - accept: Assigned → Accepted; reject: Assigned → Rejected (ended); cancel by the installation:
 *   Accepted or InTransit → Cancelled (ended). No automatic reassignment after either.
 * - status: 4 (InTransit) only from Accepted, 5 (Delivered) only from InTransit. Delivered stays the
 *   live assignment (its holder still reads the order) and completes the order (ordering does
 *   that from the event).
 * - driver, ETA and tracking: while Accepted or InTransit (a provider names its driver once it has
 *   taken the job, and nothing changes after delivery).
 * - the tenant assigns a live-less order, reassigns while Assigned (the old one is Superseded), and
 *   may not while Accepted, InTransit or Delivered (the installation holds the job; cancelling the
 *   order, or the installation's own cancel, frees it).
 * - the order cancelled (by the tenant or its source) or rejected by the tenant: an Assigned,
 *   Accepted or InTransit assignment is Terminated.
 */

/** A delivery event to publish: its type, the assignment it is about and that one's status before. */
export interface DeliveryEventSpec {
  type: 'delivery.assigned' | 'delivery.superseded' | 'delivery.cancelled' | 'delivery.status-changed';
  assignment: Assignment;
  previousStatus: AssignmentStatusName | null;
}

/** What a rule decided: the delivery after, the assignment acted on (what the caller is answered) and the events. */
export interface DeliveryChange {
  next: Delivery;
  subject: Assignment;
  events: DeliveryEventSpec[];
}

/** The rule changed nothing: the answer is this assignment as it is. */
export interface NoChange {
  unchanged: Assignment;
}

const statusDetail = (status: AssignmentStatusName) => ({ status_detail: { status } });

/** The assignment the installation holds, or the generic 404 (another's, ended, or none: the same answer). */
export function heldBy(delivery: Delivery | undefined, installationId: string): Assignment {
  const live = delivery?.live;
  if (!live || live.installationId !== installationId) throw notFound();
  return live;
}

/** `live` with `changes`, kept live (or moved to the history when the new status ends it). */
export function moveLive(delivery: Delivery, changes: Partial<Assignment>, now: Date): DeliveryChange['next'] {
  const live = { ...delivery.live!, ...changes };
  const ended = !LIVE_STATUSES.includes(live.status);
  return {
    ...delivery,
    live: ended ? null : live,
    history: ended ? [...delivery.history, { ...live, endedAt: now }] : delivery.history,
    updatedAt: now,
  };
}

/** The live assignment moved to `to` (with `extra`), and its delivery.status-changed event. */
export function statusChange(
  delivery: Delivery,
  to: AssignmentStatusName,
  extra: Partial<Assignment>,
  now: Date,
): DeliveryChange {
  const before = delivery.live!;
  const next = moveLive(delivery, { status: to, ...extra }, now);
  const subject = next.live ?? next.history[next.history.length - 1]!;
  return {
    next,
    subject,
    events: [{ type: 'delivery.status-changed', assignment: subject, previousStatus: before.status }],
  };
}

export type PartnerAction = 'accept' | 'reject' | 'cancel';

const ACTIONS: Record<
  PartnerAction,
  { from: readonly AssignmentStatusName[]; to: AssignmentStatusName; code: string; words: string }
> = {
  accept: { from: ['Assigned'], to: 'Accepted', code: 'delivery.accept_not_allowed', words: 'accepted' },
  reject: { from: ['Assigned'], to: 'Rejected', code: 'delivery.reject_not_allowed', words: 'rejected' },
  cancel: { from: ['Accepted', 'InTransit'], to: 'Cancelled', code: 'delivery.cancel_not_allowed', words: 'cancelled' },
};

/** POST accept, reject or cancel by the installation holding the live assignment. */
export function partnerAction(
  delivery: Delivery | undefined,
  installationId: string,
  action: PartnerAction,
  now: Date,
): DeliveryChange {
  const live = heldBy(delivery, installationId);
  const rule = ACTIONS[action];
  if (!rule.from.includes(live.status))
    throw conflict(
      rule.code,
      `The delivery cannot be ${rule.words} in status ${live.status} (only while ${rule.from.join(' or ')}).`,
      statusDetail(live.status),
    );
  const responded = action === 'cancel' ? {} : { respondedAt: now };
  return statusChange(delivery!, rule.to, responded, now);
}

/** PATCH status targets (the request schema allows only these) and the state each may be reached from. */
const STATUS_MOVES: Record<4 | 5, { to: AssignmentStatusName; from: AssignmentStatusName }> = {
  4: { to: 'InTransit', from: 'Accepted' },
  5: { to: 'Delivered', from: 'InTransit' },
};

export function moveStatus(
  delivery: Delivery | undefined,
  installationId: string,
  target: 4 | 5,
  now: Date,
): DeliveryChange {
  const live = heldBy(delivery, installationId);
  const move = STATUS_MOVES[target];
  if (live.status !== move.from)
    throw conflict(
      'delivery.transition_not_allowed',
      `The delivery cannot move from ${live.status} to ${move.to} (only from ${move.from}).`,
      statusDetail(live.status),
    );
  return statusChange(delivery!, move.to, {}, now);
}

/** What PATCH driver, eta and tracking set. */
export type DetailsUpdate =
  { driverName: string | null; driverPhone: string | null } | { eta: Date | null } | { trackingUrl: string | null };

const UPDATABLE: readonly AssignmentStatusName[] = ['Accepted', 'InTransit'];

/** PATCH driver, eta or tracking: no event (nothing outside this service depends on them). */
export function updateDetails(
  delivery: Delivery | undefined,
  installationId: string,
  update: DetailsUpdate,
  now: Date,
): DeliveryChange {
  const live = heldBy(delivery, installationId);
  if (!UPDATABLE.includes(live.status))
    throw conflict(
      'delivery.update_not_allowed',
      `The delivery's driver, ETA and tracking can be changed only while Accepted or InTransit, not ${live.status}.`,
      statusDetail(live.status),
    );
  const next = moveLive(delivery!, update, now);
  return { next, subject: next.live!, events: [] };
}

/** What an assignment needs beyond the delivery: the installation checked eligible and the branch's snapshot. */
export interface AssignInput {
  installationId: string;
  assignmentId: string;
  /** The branch's snapshot, or why it cannot be one (no address or coordinates, deleted). */
  pickup: Pickup | string;
}

const unprocessable = (code: string, message: string, details?: Record<string, unknown>) =>
  new AppError('unprocessable', code, message, { details });

/**
 * The tenant assigns the order's delivery to an installation (already checked: the tenant's,
 * connected, with Delivery.Accept). The same installation while Assigned answers the live
 * assignment unchanged; another one supersedes it.
 */
export function assign(delivery: Delivery, input: AssignInput, now: Date): DeliveryChange | NoChange {
  const order = delivery.order;
  if (order.orderMode !== 1)
    throw unprocessable('delivery.order_not_deliverable', 'Only a Delivery order (orderMode 1) can be assigned.');
  if (order.status !== 'Pending' && order.status !== 'Accepted')
    throw conflict(
      'delivery.order_not_assignable',
      `An order in status ${order.status} cannot be assigned (only Pending or Accepted).`,
      { status_detail: { status: order.status } },
    );
  const live = delivery.live;
  if (live && live.status === 'Assigned' && live.installationId === input.installationId) return { unchanged: live };
  if (live && live.status === 'Delivered')
    throw conflict('delivery.already_delivered', 'The order was delivered already.', statusDetail(live.status));
  if (live && live.status !== 'Assigned')
    throw conflict(
      'delivery.assignment_in_progress',
      `The installation holding the delivery has ${live.status === 'Accepted' ? 'accepted' : 'started'} it: it cannot be reassigned. ` +
        'Cancel the order, or let the installation cancel the delivery, first.',
      statusDetail(live.status),
    );
  if (typeof input.pickup === 'string')
    throw unprocessable('delivery.branch_not_locatable', `The order's branch cannot be a pickup: ${input.pickup}.`);

  const assignment: Assignment = {
    assignmentId: input.assignmentId,
    installationId: input.installationId,
    status: 'Assigned',
    assignedAt: now,
    respondedAt: null,
    endedAt: null,
    driverName: null,
    driverPhone: null,
    eta: null,
    trackingUrl: null,
    pickup: input.pickup,
  };
  const events: DeliveryEventSpec[] = [];
  const history = [...delivery.history];
  if (live) {
    const superseded: Assignment = { ...live, status: 'Superseded', endedAt: now };
    history.push(superseded);
    events.push({ type: 'delivery.superseded', assignment: superseded, previousStatus: live.status });
  }
  events.push({ type: 'delivery.assigned', assignment, previousStatus: null });
  return { next: { ...delivery, live: assignment, history, updatedAt: now }, subject: assignment, events };
}

// Cancelled ranks above Completed and Rejected: the tenant may cancel an order from any status
// (spec), so a Cancelled may follow either and must still end a live assignment.
const ORDER_STATUS_RANK: Record<Delivery['order']['status'], number> = {
  Pending: 0,
  Accepted: 1,
  Completed: 2,
  Rejected: 2,
  Cancelled: 3,
};

/**
 * The order's status changed (orders topic). Cancelled or Rejected terminates an active
 * assignment (its installation is told: delivery.cancelled); a Delivered one stays.
 */
export function orderStatusChanged(
  delivery: Delivery,
  status: Delivery['order']['status'],
  now: Date,
): Omit<DeliveryChange, 'subject'> | undefined {
  // Statuses only move forward (Pending, then Accepted, then Completed or Rejected, then
  // Cancelled): a repeated or late event (a redelivery after a crash) changes nothing.
  if (ORDER_STATUS_RANK[status] <= ORDER_STATUS_RANK[delivery.order.status]) return undefined;
  const next: Delivery = { ...delivery, order: { ...delivery.order, status }, updatedAt: now };
  const live = delivery.live;
  const ends = status === 'Cancelled' || status === 'Rejected';
  if (!ends || !live || !ACTIVE_STATUSES.includes(live.status)) return { next, events: [] };
  const terminated: Assignment = { ...live, status: 'Terminated', endedAt: now };
  return {
    next: { ...next, live: null, history: [...delivery.history, terminated] },
    events: [{ type: 'delivery.cancelled', assignment: terminated, previousStatus: live.status }],
  };
}
