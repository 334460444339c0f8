import { loadConfig } from '@marketplace/config';
import { groupTimingsOf, platformConfigProblems, platformSettings } from './platform-config';

const env = {
  KAFKA_BROKERS: '127.0.0.1:9092',
  SCHEMA_REGISTRY_URL: 'http://127.0.0.1:8081',
  MONGO_URL: 'mongodb://127.0.0.1:27017',
  REDIS_URL: 'redis://127.0.0.1:6379',
};
const read = (extra: Record<string, string> = {}) => loadConfig(platformSettings('test', 4000), { ...env, ...extra });

describe('platform settings: consumer group timings', () => {
  it('default to a 6 s session, a heartbeat a second and a 60 s rebalance timeout', () => {
    const config = read();
    expect(groupTimingsOf(config)).toEqual({
      sessionTimeoutMs: 6_000,
      heartbeatIntervalMs: 1_000,
      rebalanceTimeoutMs: 60_000,
    });
    expect(platformConfigProblems(config)).toEqual([]);
  });

  it('are read from KAFKA_SESSION_TIMEOUT_MS, KAFKA_HEARTBEAT_INTERVAL_MS and KAFKA_REBALANCE_TIMEOUT_MS', () => {
    const config = read({
      KAFKA_SESSION_TIMEOUT_MS: '10000',
      KAFKA_HEARTBEAT_INTERVAL_MS: '3000',
      KAFKA_REBALANCE_TIMEOUT_MS: '20000',
    });
    expect(groupTimingsOf(config)).toEqual({
      sessionTimeoutMs: 10_000,
      heartbeatIntervalMs: 3_000,
      rebalanceTimeoutMs: 20_000,
    });
    expect(platformConfigProblems(config)).toEqual([]);
  });

  it('are refused together when heartbeats are too far apart for the session', () => {
    const problems = platformConfigProblems(read({ KAFKA_HEARTBEAT_INTERVAL_MS: '3000' }));
    expect(problems).toEqual([
      expect.stringMatching(/^KAFKA_SESSION_TIMEOUT_MS, KAFKA_HEARTBEAT_INTERVAL_MS.*a third/),
    ]);
  });
});
