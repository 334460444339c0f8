import { context, trace, TraceFlags } from '@opentelemetry/api';
import type { OutgoingEvent } from '@marketplace/events';
import { startTracing } from '@marketplace/tracing';
import { OUTBOX, OUTBOX_SINCE, OUTBOX_VERSION, stage, updateWithOutbox, withOutbox } from './outbox';

startTracing({ serviceName: 'test' }); // no endpoint: context manager and W3C propagator only

const now = new Date('2026-05-01T12:00:00.000Z');
const event: OutgoingEvent = {
  topic: 'orders',
  key: 'o-1',
  type: 'orders.created',
  data: {
    tenantId: 't-1',
    orderId: 'o-1',
    orderNumber: '1001',
    status: 'Pending',
    sourceInstallationId: 'i-1',
    externalOrderId: 'ext-1',
  },
};

describe('outbox staging', () => {
  it('fixes an id and a time for each event, keeping ones already given', () => {
    const [fresh, given] = stage(
      [event, { ...event, eventId: 'e-given', occurredAt: '2026-04-30T00:00:00.000Z' }],
      now,
    );
    expect(fresh).toEqual({
      ...event,
      eventId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      occurredAt: '2026-05-01T12:00:00.000Z',
    });
    expect(given).toMatchObject({ eventId: 'e-given', occurredAt: '2026-04-30T00:00:00.000Z' });
  });

  it('keeps the trace of the change with each event, for a publish that happens later', () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const inTrace = trace.setSpanContext(context.active(), {
      traceId,
      spanId: '00f067aa0ba902b7',
      traceFlags: TraceFlags.SAMPLED,
      isRemote: true,
    });
    const [staged] = context.with(inTrace, () => stage([event], now));
    expect(staged!.trace).toEqual({ traceparent: `00-${traceId}-00f067aa0ba902b7-01` });
    expect(stage([event], now)[0]).not.toHaveProperty('trace'); // no trace, no field (not null)
  });

  it('puts the events and the pending marker into a new document', () => {
    const doc = withOutbox({ _id: 'o-1', status: 1 }, [event], now);
    expect(doc).toEqual({
      _id: 'o-1',
      status: 1,
      [OUTBOX]: [expect.objectContaining({ type: 'orders.created' })],
      [OUTBOX_SINCE]: now,
      [OUTBOX_VERSION]: expect.any(String),
    });
  });

  it('adds the events to an update without losing its own $set, $push or $min, and changes the outbox version', () => {
    const update = updateWithOutbox(
      { $set: { status: 8 }, $push: { history: 'cancelled' }, $min: { firstSeen: now } },
      [event],
      now,
    );
    const again = updateWithOutbox({ $set: { status: 8 } }, [event], now) as { $set: Record<string, unknown> };
    expect(again.$set[OUTBOX_VERSION]).not.toBe((update as { $set: Record<string, unknown> }).$set[OUTBOX_VERSION]);
    expect(update).toEqual({
      $set: { status: 8, [OUTBOX_VERSION]: expect.any(String) },
      $push: { history: 'cancelled', [OUTBOX]: { $each: [expect.objectContaining({ topic: 'orders' })] } },
      $min: { firstSeen: now, [OUTBOX_SINCE]: now },
    });
  });
});
