import type { Status } from '../../model';
import { collapsed, reachable, returnPathProblem, sequenceProblems, type Transitions } from './lifecycle-statuses';

const transitions: Transitions = {
  sent_to_provider: ['provider_accepted', 'cancelled'],
  provider_accepted: ['driver_assigned', 'cancelled'],
  driver_assigned: ['driver_assigned', 'arrived_at_pickup', 'picked_up'],
  arrived_at_pickup: ['picked_up'],
  picked_up: ['on_the_way', 'delivered'],
  on_the_way: ['delivered'],
  delivered: [],
};

describe('reachable', () => {
  it('follows one or several declared moves', () => {
    expect(reachable(transitions, 'provider_accepted', 'driver_assigned')).toBe(true);
    expect(reachable(transitions, 'arrived_at_pickup', 'on_the_way')).toBe(true);
    expect(reachable(transitions, 'sent_to_provider', 'delivered')).toBe(true);
  });
  it('never goes back, out of a terminal status, or through an undeclared status', () => {
    expect(reachable(transitions, 'on_the_way', 'picked_up')).toBe(false);
    expect(reachable(transitions, 'delivered', 'on_the_way')).toBe(false);
    expect(reachable(transitions, 'on_the_way', 'failed')).toBe(false);
  });
  it('a status reaches itself only through a declared loop', () => {
    expect(reachable(transitions, 'driver_assigned', 'driver_assigned')).toBe(true);
    expect(reachable(transitions, 'on_the_way', 'on_the_way')).toBe(false);
  });
});

describe('sequenceProblems', () => {
  const polled: Status[] = [
    'provider_accepted',
    'provider_accepted',
    'driver_assigned',
    'on_the_way',
    'delivered',
    'delivered',
  ];
  it('accepts repeats and skipped statuses along declared moves', () => {
    expect(collapsed(polled)).toEqual(['provider_accepted', 'driver_assigned', 'on_the_way', 'delivered']);
    expect(sequenceProblems(polled, transitions)).toEqual([]);
  });
  it('names a move back and a status after a terminal one', () => {
    expect(sequenceProblems(['on_the_way', 'picked_up'], transitions)).toEqual([
      'on_the_way → picked_up is not a move the declared transitions lead to',
    ]);
    expect(sequenceProblems(['delivered', 'on_the_way'])).toEqual([
      'on_the_way came after the terminal status delivered',
    ]);
  });
  it('without transitions checks only the terminal end', () => {
    expect(sequenceProblems(['on_the_way', 'picked_up'])).toEqual([]);
  });
});

describe('returnPathProblem', () => {
  it('accepts carrying statuses before the return applies, then return statuses to an end', () => {
    expect(
      returnPathProblem(['on_the_way', 'return_requested', 'returning_to_origin', 'returned_to_origin']),
    ).toBeUndefined();
    expect(returnPathProblem(['return_requested', 'return_failed'])).toBeUndefined();
  });
  it('refuses a delivery after the return, and a return that does not end', () => {
    expect(returnPathProblem(['return_requested', 'delivered'])).toMatch(/only return statuses/);
    expect(returnPathProblem(['return_requested', 'returning_to_origin'])).toMatch(/end in returned_to_origin/);
  });
});
