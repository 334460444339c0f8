import { describeBehind, partitionsBehind, type CommittedOffset, type PartitionEnds } from './catch-up';

// The inputs are shaped exactly as kafkajs 2.2 answers (read off the local broker):
//   admin.fetchTopicOffsets(topic)        → [{ partition: 1, offset: '2', high: '2', low: '0' }, ...]
//   admin.fetchOffsets({ groupId, topics }) → [{ topic, partitions: [{ partition: 0, offset: '-1', metadata: null }, ...] }]
//   admin.fetchTopicOffsetsByTimestamp(topic, ms) → [{ partition: 1, offset: '0' }, ...] (the high watermark where no message is that recent)
const ends = (...parts: Array<[low: number, high: number]>): Array<PartitionEnds & { offset: string }> =>
  parts.map(([low, high], partition) => ({ partition, offset: String(high), high: String(high), low: String(low) }));
const committed = (...offsets: number[]): Array<CommittedOffset & { metadata: null }> =>
  offsets.map((offset, partition) => ({ partition, offset: String(offset), metadata: null }));
const none = new Map<number, bigint>();

describe('partitionsBehind: the installation copy against every state a partition can be in', () => {
  it('empty partitions (low = high = 0), never consumed by the group: caught up (the stall of a fresh cluster)', () => {
    // Six partitions, two installations: four partitions never received a message.
    const topic = ends([0, 0], [0, 1], [0, 0], [0, 0], [0, 1], [0, 0]);
    expect(
      partitionsBehind({
        ends: topic,
        committed: committed(-1, -1, -1, -1, -1, -1),
        handled: new Map([
          [1, 1n],
          [4, 1n],
        ]),
      }),
    ).toEqual([]);
    // The same with the fallback to "everything before the event", which kafkajs fills with the high watermark.
    const needed = topic.map(({ partition, high }) => ({ partition, offset: high }));
    expect(
      partitionsBehind({
        ends: topic,
        committed: committed(-1, -1, -1, -1, -1, -1),
        handled: new Map([
          [1, 1n],
          [4, 1n],
        ]),
        needed,
      }),
    ).toEqual([]);
  });

  it('an empty partition and no group offsets at all (fetchOffsets answers no partitions): caught up', () => {
    expect(partitionsBehind({ ends: ends([0, 0], [0, 0]), committed: [], handled: none })).toEqual([]);
  });

  it('never consumed by the group, messages waiting: behind until this process has handled them', () => {
    const topic = ends([0, 3], [0, 0]);
    expect(partitionsBehind({ ends: topic, committed: committed(-1, -1), handled: none })).toEqual([
      { partition: 0, reached: '0', needed: '3' },
    ]);
    expect(partitionsBehind({ ends: topic, committed: committed(-1, -1), handled: new Map([[0, 2n]]) })).toEqual([
      { partition: 0, reached: '2', needed: '3' },
    ]);
    expect(partitionsBehind({ ends: topic, committed: committed(-1, -1), handled: new Map([[0, 3n]]) })).toEqual([]);
  });

  it('emptied by retention (low = high > 0): nothing left to read, caught up whatever the group committed', () => {
    expect(partitionsBehind({ ends: ends([40, 40]), committed: committed(-1), handled: none })).toEqual([]);
    expect(partitionsBehind({ ends: ends([40, 40]), committed: committed(12), handled: none })).toEqual([]);
  });

  it('retention deleted past the committed offset (low > committed): only what is still there is needed', () => {
    expect(partitionsBehind({ ends: ends([30, 45]), committed: committed(12), handled: none })).toEqual([
      { partition: 0, reached: '30', needed: '45' },
    ]);
    expect(partitionsBehind({ ends: ends([30, 45]), committed: committed(12), handled: new Map([[0, 45n]]) })).toEqual(
      [],
    );
  });

  it('ordinary: the committed offset of an earlier run counts as much as what this process handled', () => {
    const topic = ends([0, 10], [0, 4]);
    expect(partitionsBehind({ ends: topic, committed: committed(10, 4), handled: none })).toEqual([]);
    expect(partitionsBehind({ ends: topic, committed: committed(7, 4), handled: none })).toEqual([
      { partition: 0, reached: '7', needed: '10' },
    ]);
    expect(partitionsBehind({ ends: topic, committed: committed(7, 4), handled: new Map([[0, 10n]]) })).toEqual([]);
    // A stale handled offset never hides a newer commit, nor the other way round.
    expect(
      partitionsBehind({
        ends: topic,
        committed: committed(10, 2),
        handled: new Map([
          [0, 3n],
          [1, 4n],
        ]),
      }),
    ).toEqual([]);
  });

  it('behind the end, but the event only needs what was published before it', () => {
    const topic = ends([0, 10], [0, 5]);
    // Messages 8 and 9 of partition 0 came after the event: the copy at 8 is enough for it.
    const needed = [
      { partition: 0, offset: '8' },
      { partition: 1, offset: '5' },
    ];
    expect(partitionsBehind({ ends: topic, committed: committed(8, 5), handled: none })).toEqual([
      { partition: 0, reached: '8', needed: '10' },
    ]);
    expect(partitionsBehind({ ends: topic, committed: committed(8, 5), handled: none, needed })).toEqual([]);
    expect(partitionsBehind({ ends: topic, committed: committed(6, 5), handled: none, needed })).toEqual([
      { partition: 0, reached: '6', needed: '8' },
    ]);
  });

  it('a broker answering -1 for "no message that recent" needs the whole partition', () => {
    expect(
      partitionsBehind({
        ends: ends([0, 4]),
        committed: committed(3),
        handled: none,
        needed: [{ partition: 0, offset: '-1' }],
      }),
    ).toEqual([{ partition: 0, reached: '3', needed: '4' }]);
  });

  it('describes the partitions behind with their offsets, for the alarm', () => {
    expect(
      describeBehind([
        { partition: 3, reached: '-1', needed: '2' },
        { partition: 5, reached: '4', needed: '7' },
      ]),
    ).toBe('partition 3 at -1 of 2, partition 5 at 4 of 7');
  });
});
