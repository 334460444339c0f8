import type { AssignmentStatusName, ProviderStatusName } from '@marketplace/contracts';

/**
 * The one table from a provider's status (the contract's vocabulary) to the marketplace's
 * assignment (the Partner API's model), written out in the README too:
 *
 * | Provider status | Assignment | |
 * |---|---|---|
 * | sent_to_provider | Assigned | the provider has the request, no answer yet |
 * | provider_accepted, driver_assigned, arrived_at_pickup | Accepted | driver, ETA and tracking URL from the events |
 * | picked_up, on_the_way, return_requested, returning_to_origin | InTransit | a return is still on the road |
 * | delivered | Delivered | the order completes |
 * | cancelled, failed | Cancelled | the assignment ends; before pickup it may be rescued |
 * | returned_to_origin, return_failed | Cancelled | the assignment ends after a return |
 *
 * An assignment only moves forward (Assigned → Accepted → InTransit → Delivered); a state that
 * would move it back is a stale one and changes nothing.
 */
export const ASSIGNMENT_FOR_PROVIDER_STATUS: Readonly<
  Record<ProviderStatusName, 'Assigned' | 'Accepted' | 'InTransit' | 'Delivered' | 'Cancelled'>
> = {
  sent_to_provider: 'Assigned',
  provider_accepted: 'Accepted',
  driver_assigned: 'Accepted',
  arrived_at_pickup: 'Accepted',
  picked_up: 'InTransit',
  on_the_way: 'InTransit',
  return_requested: 'InTransit',
  returning_to_origin: 'InTransit',
  delivered: 'Delivered',
  cancelled: 'Cancelled',
  failed: 'Cancelled',
  returned_to_origin: 'Cancelled',
  return_failed: 'Cancelled',
};

/** Progress of a live assignment: it moves to a higher rank only. */
export const ASSIGNMENT_RANK: Partial<Record<AssignmentStatusName, number>> = {
  Assigned: 0,
  Accepted: 1,
  InTransit: 2,
  Delivered: 3,
};

/**
 * Progress of a provider's delivery, for ignoring stale regressions whatever transitions the
 * provider allows (the contract leaves them to the provider): a status of a lower rank than the
 * one held is stale; the same status is newer data unless its event time is earlier (the same
 * time with other data: two observations at once); every terminal status shares the top rank, so
 * the first terminal one stays.
 */
export const PROVIDER_STATUS_RANK: Readonly<Record<ProviderStatusName, number>> = {
  sent_to_provider: 0,
  provider_accepted: 1,
  driver_assigned: 2,
  arrived_at_pickup: 3,
  picked_up: 4,
  on_the_way: 5,
  return_requested: 6,
  returning_to_origin: 7,
  delivered: 9,
  cancelled: 9,
  failed: 9,
  returned_to_origin: 9,
  return_failed: 9,
};

/** Before the goods are collected: a cancel is `before_pickup`, and a cancellation or failure may be rescued. */
export const isBeforePickup = (status: ProviderStatusName | null): boolean =>
  status === null || PROVIDER_STATUS_RANK[status] < PROVIDER_STATUS_RANK.picked_up;

export const isProviderTerminal = (status: ProviderStatusName): boolean => PROVIDER_STATUS_RANK[status] === 9;
