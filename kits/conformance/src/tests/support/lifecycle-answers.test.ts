import type { Exchange } from '../../model';
import { coordinateProblems, fieldAcceptedProblems, outcomeOf, trackingProblems } from './lifecycle-answers';
import { declaredUpdate, groupOutcome, updateProbes } from './lifecycle-updates';
import type { Declaration } from '../../model';

const answer = (status: number, json: unknown): Exchange => ({
  method: 'POST',
  url: 'https://provider.example/v1/deliveries/d1/cancel',
  requestHeaders: {},
  requestBody: null,
  status,
  responseHeaders: { 'content-type': 'application/json' },
  responseBody: JSON.stringify(json),
  json,
  responseBytes: 0,
  startedAt: '2026-01-01T00:00:00Z',
  durationMs: 1,
});
const envelope = { code: 'conflict', message: 'no', retryable: false };

describe('outcomeOf', () => {
  it('reads the boolean of a 200, or a refusal as a 409/422 envelope', () => {
    expect(outcomeOf(answer(200, { confirmed: true }), 'confirmed')).toEqual({
      outcome: 'confirmed',
      via: '200 confirmed true',
    });
    expect(outcomeOf(answer(200, { accepted: false, errorMessage: 'x' }), 'accepted')).toMatchObject({
      outcome: 'refused',
    });
    expect(outcomeOf(answer(409, envelope), 'confirmed')).toEqual({ outcome: 'refused', via: '409 error envelope' });
  });
  it('names an answer without the boolean, or another status', () => {
    expect(outcomeOf(answer(200, { confirmed: 'yes' }), 'confirmed')).toHaveProperty('problem');
    expect(outcomeOf(answer(500, envelope), 'confirmed')).toHaveProperty('problem');
    expect(outcomeOf(answer(200, { confirmed: true, errorMessage: 3 }), 'confirmed')).toHaveProperty('problem');
  });
});

describe('fieldAcceptedProblems', () => {
  it('wants one boolean per submitted field, nothing else', () => {
    expect(
      fieldAcceptedProblems({ fieldAccepted: { notes: true, customerName: false } }, ['notes', 'customerName']),
    ).toEqual([]);
    expect(fieldAcceptedProblems({ fieldAccepted: { notes: 'yes', amount: true } }, ['notes'])).toEqual([
      'fieldAccepted.notes is not a boolean',
      'fieldAccepted.amount was not submitted',
    ]);
    expect(fieldAcceptedProblems({}, ['notes'])).toEqual(['`fieldAccepted` is not an object']);
  });
});

describe('trackingProblems and coordinateProblems', () => {
  const ok = {
    driverName: null,
    driverPhone: null,
    driverLat: null,
    driverLng: null,
    trackingUrl: null,
    estimatedDeliveryAtUtc: null,
    eventTimeUtc: '2026-01-01T10:00:00Z',
  };
  it('accepts nulls, absent nullable fields and the right types', () => {
    expect(trackingProblems(ok)).toEqual([]);
    expect(
      trackingProblems({
        eventTimeUtc: '2026-01-01T10:00:00+02:00',
        driverName: 'Ann',
        driverLat: 52.5,
        driverLng: 13.4,
      }),
    ).toEqual([]);
  });
  it('names wrong types, a missing eventTimeUtc and unpaired or out-of-range coordinates', () => {
    expect(trackingProblems({ ...ok, driverName: 3, eventTimeUtc: '2026-01-01 10:00' })).toEqual([
      'driverName is neither null nor a string',
      'eventTimeUtc is not an RFC 3339 date-time with an offset',
    ]);
    expect(coordinateProblems(52.5, null)).toHaveLength(1);
    expect(coordinateProblems(91, -181)).toEqual([
      'driverLat 91 is outside [-90, 90]',
      'driverLng -181 is outside [-180, 180]',
    ]);
  });
});

describe('update probes', () => {
  const declaration = {
    sandbox: { lifecycleTimeoutSeconds: 120, holdPreparationMinutes: 60 },
    updates: { dropoff: ['provider_accepted'], notes: ['provider_accepted', 'on_the_way'], scheduledDeliveryAtUtc: [] },
  } as unknown as Declaration;
  const request = { dropoffAddress: 'A 1', dropoffLat: 1, dropoffLng: 2, notes: null };
  it('sends each declared group with the values the delivery has, the scheduled time beyond the hold', () => {
    const probes = updateProbes(declaration, request, Date.parse('2026-01-01T00:00:00Z'));
    expect(probes).toEqual([
      { group: 'dropoff', body: { dropoffAddress: 'A 1', dropoffLat: 1, dropoffLng: 2 } },
      { group: 'notes', body: { notes: 'sdp-conformance' } },
      { group: 'scheduledDeliveryAtUtc', body: { scheduledDeliveryAtUtc: '2026-01-02T01:00:00.000Z' } },
    ]);
  });
  it('reads a group answer and the declared outcome', () => {
    const fields = ['dropoffAddress', 'dropoffLat', 'dropoffLng'];
    expect(
      groupOutcome(
        answer(200, { fieldAccepted: { dropoffAddress: true, dropoffLat: true, dropoffLng: true } }),
        fields,
      ),
    ).toEqual({ outcome: 'confirmed' });
    expect(groupOutcome(answer(422, envelope), fields)).toEqual({ outcome: 'refused' });
    expect(
      groupOutcome(
        answer(200, { fieldAccepted: { dropoffAddress: true, dropoffLat: false, dropoffLng: true } }),
        fields,
      ),
    ).toHaveProperty('problem');
    expect(declaredUpdate(declaration, 'notes')('on_the_way')).toBe('confirmed');
    expect(declaredUpdate(declaration, 'dropoff')('on_the_way')).toBe('refused');
  });
});
