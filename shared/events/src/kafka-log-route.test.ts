import { logLevel, type LogEntry } from 'kafkajs';
import { captureLogger } from '@marketplace/testing';
import { kafkajsLogRoute } from './kafka';

// kafkajs's own lines, as its consumer writes them (node_modules/kafkajs/src/consumer/index.js).
const line = (namespace: string, level: logLevel, message: string, extra: Record<string, unknown> = {}): LogEntry => ({
  namespace,
  level,
  label: level === logLevel.ERROR ? 'ERROR' : 'WARN',
  log: { timestamp: '2026-12-02T12:00:00.000Z', logger: 'kafkajs', message, ...extra },
});
const crash = (groupId: string, message: string) =>
  line('Consumer', logLevel.ERROR, `Crash: ${message}`, { groupId, retryCount: 0, stack: 'KafkaJSProtocolError: …' });
const restart = (groupId: string) =>
  line('Consumer', logLevel.ERROR, 'Restarting the consumer in 300ms', { groupId, retryCount: 0, retryTime: 300 });
const LOADING = "KafkaJSProtocolError: The coordinator is loading and hence can't process requests for this group";

function routed(entries: LogEntry[]) {
  const { logger, lines } = captureLogger();
  const route = kafkajsLogRoute(logger);
  entries.forEach(route);
  const name = (level: unknown) => ({ 20: 'debug', 30: 'info', 40: 'warn', 50: 'error' })[level as 20] ?? String(level);
  return lines.map((l) => `${name(l.level)} ${String(l.msg)}`);
}

describe('kafkajs log lines', () => {
  it('tell a consumer restarted because its group coordinator was still loading (a fresh cluster) at info', () => {
    expect(routed([crash('g1', LOADING), restart('g1')])).toEqual([
      'info consumer restarts: its group coordinator is still loading',
      'info Restarting the consumer in 300ms',
    ]);
  });

  it('keep every other crash, and the restart after it, an error', () => {
    expect(
      routed([
        crash('g1', LOADING),
        crash('g1', 'KafkaJSNumberOfRetriesExceeded: Connection timeout'),
        restart('g1'),
        restart('g2'),
      ]),
    ).toEqual([
      'info consumer restarts: its group coordinator is still loading',
      'error Crash: KafkaJSNumberOfRetriesExceeded: Connection timeout',
      'error Restarting the consumer in 300ms',
      'error Restarting the consumer in 300ms',
    ]);
  });

  it("tell one group's restart calmly only after that group's loading crash", () => {
    expect(routed([crash('g1', LOADING), restart('g2'), restart('g1'), restart('g1')])).toEqual([
      'info consumer restarts: its group coordinator is still loading',
      'error Restarting the consumer in 300ms',
      'info Restarting the consumer in 300ms',
      'error Restarting the consumer in 300ms',
    ]);
  });

  it("put a broker's retried error response at debug and kafkajs's warnings at warn", () => {
    expect(
      routed([
        line('Connection', logLevel.ERROR, 'Response Metadata(key: 3, version: 6)', { error: 'LEADER_NOT_AVAILABLE' }),
        line('Cluster', logLevel.WARN, 'something worth a look'),
        line('Runner', logLevel.ERROR, 'something broke'),
      ]),
    ).toEqual(['debug Response Metadata(key: 3, version: 6)', 'warn something worth a look', 'error something broke']);
  });
});
