import {
  cancelOutcome,
  canMove,
  EVENT_OF_STATUS,
  isTerminal,
  mayReport,
  mayUpdate,
  returnOutcome,
  STATUSES,
  TERMINAL,
  TRANSITIONS,
  type Status,
} from './lifecycle';

describe('the status table', () => {
  it('uses the contract vocabulary only, with its five terminal statuses', () => {
    expect(STATUSES).toHaveLength(13);
    expect([...TERMINAL].sort()).toEqual(['cancelled', 'delivered', 'failed', 'return_failed', 'returned_to_origin']);
    for (const [from, tos] of Object.entries(TRANSITIONS)) {
      expect(STATUSES).toContain(from);
      for (const to of tos) expect(STATUSES).toContain(to);
    }
  });

  it('leaves a terminal status never, and nothing reports after it', () => {
    for (const status of TERMINAL) {
      expect(TRANSITIONS[status]).toEqual([]);
      expect(mayReport(status)).toBe(false);
      for (const to of STATUSES) expect(canMove(status, to)).toBe(false);
    }
  });

  it('never goes back: every move is to a later status, or the same with a new driver', () => {
    const rank = (s: Status) => STATUSES.indexOf(s);
    for (const [from, tos] of Object.entries(TRANSITIONS) as Array<[Status, readonly Status[]]>)
      for (const to of tos) {
        if (to === from) expect(from).toBe('driver_assigned');
        else expect(rank(to)).toBeGreaterThan(rank(from));
      }
  });

  it('reaches every terminal status from a new delivery', () => {
    const reached = new Set<Status>(['sent_to_provider']);
    for (let changed = true; changed;) {
      changed = false;
      for (const from of [...reached])
        for (const to of TRANSITIONS[from])
          if (!reached.has(to)) {
            reached.add(to);
            changed = true;
          }
    }
    expect([...reached].sort()).toEqual([...STATUSES].sort());
  });

  it('names an event for every status a move can reach', () => {
    for (const tos of Object.values(TRANSITIONS)) for (const to of tos) expect(EVENT_OF_STATUS).toHaveProperty(to);
    expect(EVENT_OF_STATUS.provider_accepted).toBe('delivery.accepted');
    expect(EVENT_OF_STATUS.failed).toBe('delivery.failed');
    expect(isTerminal('on_the_way')).toBe(false);
  });
});

describe('cancel outcomes: pending, accepted, picked up, final', () => {
  it.each([
    ['sent_to_provider', 'before_pickup', true, 'cancelled'],
    ['provider_accepted', 'before_pickup', true, 'cancelled'],
    ['driver_assigned', 'after_pickup', true, 'cancelled'],
    ['arrived_at_pickup', 'before_pickup', true, 'cancelled'],
    ['picked_up', 'after_pickup', true, 'cancelled'],
    ['on_the_way', 'after_pickup', true, 'cancelled'],
    ['picked_up', 'before_pickup', false, null],
    ['return_requested', 'after_pickup', false, null],
    ['cancelled', 'before_pickup', true, null],
    ['delivered', 'after_pickup', false, null],
    ['failed', 'before_pickup', false, null],
    ['returned_to_origin', 'after_pickup', false, null],
  ] as const)('%s with %s: confirmed %s, to %s', (status, stage, confirmed, to) => {
    const outcome = cancelOutcome(status, stage);
    expect([outcome.confirmed, outcome.to]).toEqual([confirmed, to]);
    expect(outcome.errorMessage === null).toBe(confirmed);
  });
});

describe('return outcomes', () => {
  it('starts from picked up or on the way, repeats while under way, refuses otherwise', () => {
    expect(returnOutcome('picked_up')).toMatchObject({ accepted: true, to: 'return_requested' });
    expect(returnOutcome('on_the_way')).toMatchObject({ accepted: true, to: 'return_requested' });
    expect(returnOutcome('returning_to_origin')).toMatchObject({ accepted: true, to: null });
    expect(returnOutcome('provider_accepted').accepted).toBe(false);
    expect(returnOutcome('delivered').accepted).toBe(false);
    expect(canMove('return_requested', 'returning_to_origin')).toBe(true);
    expect(canMove('returning_to_origin', 'return_failed')).toBe(true);
  });
});

describe('which fields PATCH may change', () => {
  it('the drop-off until pickup (a new drop-off after pickup is refused)', () => {
    expect(mayUpdate('dropoff', 'arrived_at_pickup')).toBe(true);
    expect(mayUpdate('dropoff', 'picked_up')).toBe(false);
  });

  it('the preparation and scheduled times until a driver is assigned; contact details while it goes on', () => {
    expect(mayUpdate('preparationTimeMinutes', 'provider_accepted')).toBe(true);
    expect(mayUpdate('scheduledDeliveryAtUtc', 'driver_assigned')).toBe(false);
    expect(mayUpdate('customerPhone', 'on_the_way')).toBe(true);
    expect(mayUpdate('customerPhone', 'delivered')).toBe(false);
    expect(mayUpdate('notes', 'return_requested')).toBe(false);
  });
});
