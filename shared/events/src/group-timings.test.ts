import { Kafka, type ConsumerConfig } from 'kafkajs';
import { consumerGroupConfig, DEFAULT_GROUP_TIMINGS, groupTimingProblems, withGroupTimings } from './group-timings';

describe('consumer group timings', () => {
  it('default to a session short enough for a crashed member to be replaced within 10 s', () => {
    // The broker's smallest session timeout by default is 6 s; the fault proof's bound is 10 s.
    expect(DEFAULT_GROUP_TIMINGS.sessionTimeoutMs).toBeGreaterThanOrEqual(6_000);
    expect(DEFAULT_GROUP_TIMINGS.sessionTimeoutMs).toBeLessThanOrEqual(8_000);
    expect(groupTimingProblems(DEFAULT_GROUP_TIMINGS)).toEqual([]);
  });

  it('refuse heartbeats further apart than a third of the session timeout', () => {
    expect(
      groupTimingProblems({ sessionTimeoutMs: 6_000, heartbeatIntervalMs: 2_001, rebalanceTimeoutMs: 60_000 }),
    ).toEqual([
      expect.stringContaining('heartbeat interval (2001 ms) must be at most a third of the session timeout (6000 ms)'),
    ]);
    expect(
      groupTimingProblems({ sessionTimeoutMs: 6_000, heartbeatIntervalMs: 2_000, rebalanceTimeoutMs: 60_000 }),
    ).toEqual([]);
  });

  it('refuse a rebalance timeout shorter than the session timeout', () => {
    expect(
      groupTimingProblems({ sessionTimeoutMs: 10_000, heartbeatIntervalMs: 1_000, rebalanceTimeoutMs: 9_999 }),
    ).toEqual([
      expect.stringContaining('rebalance timeout (9999 ms) must not be shorter than the session timeout (10000 ms)'),
    ]);
  });

  it('map to the kafkajs consumer settings', () => {
    expect(
      consumerGroupConfig({ sessionTimeoutMs: 7_000, heartbeatIntervalMs: 1_500, rebalanceTimeoutMs: 45_000 }),
    ).toEqual({
      sessionTimeout: 7_000,
      heartbeatInterval: 1_500,
      rebalanceTimeout: 45_000,
    });
  });

  it('apply to every consumer of a client, over the timings its creator asked for', () => {
    const kafka = new Kafka({ clientId: 'group-timings-test', brokers: ['127.0.0.1:1'] });
    const asked: ConsumerConfig[] = [];
    const consumer = jest.spyOn(kafka, 'consumer').mockImplementation((config) => {
      asked.push(config);
      return {} as ReturnType<Kafka['consumer']>;
    });
    const timed = withGroupTimings(kafka, DEFAULT_GROUP_TIMINGS);
    timed.consumer({ groupId: 'g', sessionTimeout: 30_000, heartbeatInterval: 3_000, maxWaitTimeInMs: 500 });
    expect(asked).toEqual([
      { groupId: 'g', sessionTimeout: 6_000, heartbeatInterval: 1_000, rebalanceTimeout: 60_000, maxWaitTimeInMs: 500 },
    ]);
    // Everything else is the same client.
    expect(timed.admin).toBe(kafka.admin);
    consumer.mockRestore();
  });
});
