/**
 * Whether a service's copy of a topic holds every message published up to some point (for the
 * webhook sender, every installation event a domain event may depend on). Pure:
 * it takes the offsets as the Kafka admin calls return them (kafkajs `fetchTopicOffsets`,
 * `fetchOffsets`, `fetchTopicOffsetsByTimestamp`: offsets are decimal strings, `-1` for "none")
 * plus what this process has handled itself, and says which partitions are still behind.
 *
 * Per partition, the copy has *reached* the largest of:
 * - the group's committed offset (what an earlier run of the copy handled),
 * - the next offset after the last message this process handled,
 * - the partition's low watermark: nothing before it can ever be read again (an empty partition
 *   has low = high = 0; retention may have emptied it, low = high > 0, or deleted past the
 *   committed offset, low > committed), so there is nothing there to wait for;
 * and it is caught up when that reaches the offset *needed*: the high watermark (everything), or,
 * for one domain event, the first offset published at or after the event (what came before it).
 */

/** One partition's end offsets, as kafkajs `admin.fetchTopicOffsets` returns them. */
export interface PartitionEnds {
  partition: number;
  low: string;
  high: string;
}

/** One partition's committed offset, as in kafkajs `admin.fetchOffsets(...)[0].partitions`. */
export interface CommittedOffset {
  partition: number;
  offset: string;
}

/** One partition's first offset at or after a time, as kafkajs `admin.fetchTopicOffsetsByTimestamp` returns it. */
export interface OffsetAtTime {
  partition: number;
  offset: string;
}

/** A partition the copy has not caught up with: what it has reached and what is needed. */
export interface PartitionBehind {
  partition: number;
  reached: string;
  needed: string;
}

const max = (...values: bigint[]) => values.reduce((a, b) => (b > a ? b : a));

/** Offsets that do not parse (none should) count as nothing handled: -1. */
function offsetOf(text: string | undefined): bigint {
  if (text === undefined || !/^-?\d+$/.test(text)) return -1n;
  return BigInt(text);
}

export interface CatchUpInput {
  ends: PartitionEnds[];
  committed: CommittedOffset[];
  /** Per partition, the offset after the last message this process handled. */
  handled: ReadonlyMap<number, bigint>;
  /**
   * Per partition, the offset needed (the first message at or after the domain event). Partitions
   * missing here (or every partition, when omitted) need the high watermark.
   */
  needed?: OffsetAtTime[];
}

/** The partitions still behind; empty when the copy has caught up. */
export function partitionsBehind({ ends, committed, handled, needed }: CatchUpInput): PartitionBehind[] {
  const committedBy = new Map(committed.map((c) => [c.partition, offsetOf(c.offset)]));
  const neededBy = new Map((needed ?? []).map((n) => [n.partition, offsetOf(n.offset)]));
  const behind: PartitionBehind[] = [];
  for (const end of ends) {
    const low = offsetOf(end.low);
    const high = offsetOf(end.high);
    const reached = max(committedBy.get(end.partition) ?? -1n, handled.get(end.partition) ?? -1n, low);
    // A negative "needed" (no message at or after the time, in brokers that answer so) means the
    // whole partition came before: the high watermark.
    const wanted = neededBy.get(end.partition);
    const target = wanted === undefined || wanted < 0n || wanted > high ? high : wanted;
    if (reached < target)
      behind.push({ partition: end.partition, reached: reached.toString(), needed: target.toString() });
  }
  return behind;
}

/** `partition 3 at 4 of 7, partition 5 at -1 of 2`: for logs and readiness details. */
export function describeBehind(behind: PartitionBehind[]): string {
  return behind.map((b) => `partition ${b.partition} at ${b.reached} of ${b.needed}`).join(', ');
}
