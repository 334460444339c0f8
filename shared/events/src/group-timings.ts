import type { ConsumerConfig, Kafka } from 'kafkajs';

/**
 * How a consumer group notices that a member is gone, and how long it waits for members to rejoin.
 *
 * A member that dies without leaving (kill -9, a node lost) keeps its partitions until the broker
 * has had no heartbeat from it for `sessionTimeoutMs`: a restarted process joins at once, but the
 * group's rebalance waits out the dead member, and the partitions are handled by nobody meanwhile.
 * kafkajs has no static membership (KIP-345, `group.instance.id`), which would let the restarted
 * process take its old place at once: the session timeout is the bound instead. The broker accepts
 * values between its `group.min.session.timeout.ms` (6 s by default) and
 * `group.max.session.timeout.ms` (30 min by default).
 */
export interface GroupTimings {
  /** No heartbeat for this long and the member is out of the group (its partitions move). */
  sessionTimeoutMs: number;
  /** At most this long between heartbeats, also while a message is being handled. */
  heartbeatIntervalMs: number;
  /** How long a rebalance waits for the live members to rejoin (each finishes its message first). */
  rebalanceTimeoutMs: number;
}

/**
 * 6 s (the broker's smallest by default): a crashed member's partitions move within about 6 s. A
 * heartbeat every second leaves five to miss before a live member is taken for dead (a long GC
 * pause, a busy CPU). A rebalance waits up to a minute for a member to finish its message.
 */
export const DEFAULT_GROUP_TIMINGS: GroupTimings = {
  sessionTimeoutMs: 6_000,
  heartbeatIntervalMs: 1_000,
  rebalanceTimeoutMs: 60_000,
};

/** What is wrong with these timings (empty: nothing), each naming the settings involved. */
export function groupTimingProblems(t: GroupTimings): string[] {
  const problems: string[] = [];
  // Kafka's own advice: a third of the session timeout at most, so that two lost heartbeats in a
  // row do not end a live member's session.
  if (t.heartbeatIntervalMs * 3 > t.sessionTimeoutMs)
    problems.push(
      `the heartbeat interval (${t.heartbeatIntervalMs} ms) must be at most a third of the session timeout (${t.sessionTimeoutMs} ms)`,
    );
  if (t.rebalanceTimeoutMs < t.sessionTimeoutMs)
    problems.push(
      `the rebalance timeout (${t.rebalanceTimeoutMs} ms) must not be shorter than the session timeout (${t.sessionTimeoutMs} ms)`,
    );
  return problems;
}

/** The kafkajs consumer settings for these timings. */
export function consumerGroupConfig(
  t: GroupTimings,
): Pick<ConsumerConfig, 'sessionTimeout' | 'heartbeatInterval' | 'rebalanceTimeout'> {
  return {
    sessionTimeout: t.sessionTimeoutMs,
    heartbeatInterval: t.heartbeatIntervalMs,
    rebalanceTimeout: t.rebalanceTimeoutMs,
  };
}

/**
 * The same client, except that every consumer it creates uses these timings, over what its
 * creator asked for: for code that creates its own kafkajs consumers (not an EventConsumer), so
 * that every group of a process comes back after a crash within the same bound.
 */
export function withGroupTimings(kafka: Kafka, t: GroupTimings): Kafka {
  const timed = Object.create(kafka) as Kafka;
  timed.consumer = (config: ConsumerConfig) => kafka.consumer({ ...config, ...consumerGroupConfig(t) });
  return timed;
}
