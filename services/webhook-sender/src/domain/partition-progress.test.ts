import { PartitionProgress } from './partition-progress';

describe('PartitionProgress', () => {
  it('commits nothing before a read, then the offset after the newest read when all are finished', () => {
    const p = new PartitionProgress();
    expect(p.committable()).toBeUndefined();
    p.begin(5n);
    p.end(5n);
    expect(p.committable()).toBe(6n);
  });

  it('never commits past the oldest unfinished offset, whichever order they finish in', () => {
    const p = new PartitionProgress();
    for (const offset of [10n, 11n, 12n, 13n]) p.begin(offset);
    p.end(12n);
    p.end(11n);
    expect(p.committable()).toBe(10n); // 10 still waits for its due time
    p.end(10n);
    expect(p.committable()).toBe(13n);
    p.end(13n);
    expect(p.committable()).toBe(14n);
    expect(p.unfinishedCount).toBe(0);
  });

  it('knows what it has read, so a message read again after a rebalance is not begun twice', () => {
    const p = new PartitionProgress();
    p.begin(3n);
    p.begin(4n);
    p.end(4n);
    expect([2n, 3n, 4n, 5n].map((o) => p.hasRead(o))).toEqual([true, true, true, false]);
    expect(() => p.begin(4n)).toThrow(RangeError);
  });

  it('offers an offset for commit once: again only when it moved', () => {
    const p = new PartitionProgress();
    p.begin(0n);
    p.begin(1n);
    p.end(1n);
    expect(p.toCommit()).toBe(0n);
    p.committed(0n);
    expect(p.toCommit()).toBeUndefined();
    p.end(0n);
    expect(p.toCommit()).toBe(2n);
  });

  it('finds the oldest unfinished of 200,000 offsets finished newest first', () => {
    const p = new PartitionProgress();
    const n = 200_000;
    for (let i = 0; i < n; i++) p.begin(BigInt(i));
    for (let i = n - 1; i >= 1; i--) p.end(BigInt(i));
    expect(p.committable()).toBe(0n);
    p.end(0n);
    expect(p.committable()).toBe(BigInt(n));
  });
});
