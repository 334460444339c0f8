import { PROVIDER_STATUSES, type ProviderStatusName } from '@marketplace/contracts';
import {
  ASSIGNMENT_FOR_PROVIDER_STATUS,
  ASSIGNMENT_RANK,
  isBeforePickup,
  isProviderTerminal,
  PROVIDER_STATUS_RANK,
} from './status-map';

// The contract's status vocabulary (States and transitions), written out by hand: the assignment
// each one gives, whether it is terminal, and whether the goods are still at the pickup.
const TABLE: ReadonlyArray<[ProviderStatusName, string, boolean, boolean]> = [
  // status, assignment, terminal, before pickup
  ['sent_to_provider', 'Assigned', false, true],
  ['provider_accepted', 'Accepted', false, true],
  ['driver_assigned', 'Accepted', false, true],
  ['arrived_at_pickup', 'Accepted', false, true],
  ['picked_up', 'InTransit', false, false],
  ['on_the_way', 'InTransit', false, false],
  ['delivered', 'Delivered', true, false],
  ['cancelled', 'Cancelled', true, false],
  ['failed', 'Cancelled', true, false],
  ['return_requested', 'InTransit', false, false],
  ['returning_to_origin', 'InTransit', false, false],
  ['returned_to_origin', 'Cancelled', true, false],
  ['return_failed', 'Cancelled', true, false],
];

describe('the table from provider status to assignment status', () => {
  it('covers every status of the contract vocabulary, and nothing else', () => {
    expect(TABLE.map(([status]) => status)).toEqual([...PROVIDER_STATUSES]);
    expect(Object.keys(ASSIGNMENT_FOR_PROVIDER_STATUS).sort()).toEqual([...PROVIDER_STATUSES].sort());
  });

  it.each(TABLE.map(([status, assignment]) => [status, assignment]))('%s gives an assignment %s', (status, to) => {
    expect(ASSIGNMENT_FOR_PROVIDER_STATUS[status]).toBe(to);
  });
});

describe('isProviderTerminal (the contract: delivered, cancelled, failed, returned_to_origin, return_failed)', () => {
  it.each(TABLE.map(([status, , terminal]) => [status, terminal]))('%s: terminal %s', (status, terminal) => {
    expect(isProviderTerminal(status)).toBe(terminal);
  });
});

describe('isBeforePickup', () => {
  it.each(TABLE.map(([status, , , before]) => [status, before]))('%s: before pickup %s', (status, before) => {
    expect(isBeforePickup(status)).toBe(before);
  });

  it('no status known yet (the create not answered) is before pickup', () => {
    expect(isBeforePickup(null)).toBe(true);
  });
});

describe('ranks', () => {
  it('the provider statuses rise along the road: request, acceptance, driver, pickup, travel, return', () => {
    const road: ProviderStatusName[] = [
      'sent_to_provider',
      'provider_accepted',
      'driver_assigned',
      'arrived_at_pickup',
      'picked_up',
      'on_the_way',
      'return_requested',
      'returning_to_origin',
    ];
    for (let i = 1; i < road.length; i++)
      expect(PROVIDER_STATUS_RANK[road[i]!]).toBeGreaterThan(PROVIDER_STATUS_RANK[road[i - 1]!]);
    for (const status of road) expect(PROVIDER_STATUS_RANK[status]).toBeLessThan(PROVIDER_STATUS_RANK.delivered);
  });

  it('every terminal status shares the top rank', () => {
    const terminal = TABLE.filter(([, , isTerminal]) => isTerminal).map(([status]) => PROVIDER_STATUS_RANK[status]);
    expect(new Set(terminal).size).toBe(1);
    expect(terminal[0]).toBe(Math.max(...Object.values(PROVIDER_STATUS_RANK)));
  });

  it('the live assignment statuses rank Assigned < Accepted < InTransit < Delivered; ended ones have no rank', () => {
    expect(ASSIGNMENT_RANK).toEqual({ Assigned: 0, Accepted: 1, InTransit: 2, Delivered: 3 });
  });

  it('the table never maps a later provider status to an earlier live assignment status', () => {
    const road: ProviderStatusName[] = [
      'sent_to_provider',
      'provider_accepted',
      'driver_assigned',
      'arrived_at_pickup',
      'picked_up',
      'on_the_way',
      'return_requested',
      'returning_to_origin',
      'delivered',
    ];
    const ranks = road.map((s) => ASSIGNMENT_RANK[ASSIGNMENT_FOR_PROVIDER_STATUS[s]]!);
    expect(ranks).toEqual([0, 1, 1, 1, 2, 2, 2, 2, 3]);
  });
});
