import type { Admin } from 'kafkajs';
import { CopyProgress, waitForCopies } from './copy-progress';

/** An admin answering as kafkajs does, counting calls; the group has committed `committed`. */
function fakeAdmin(high: number, committed: number) {
  const calls = { ends: 0, offsets: 0, byTime: 0 };
  const admin = {
    fetchTopicOffsets: async () => {
      calls.ends++;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return [{ partition: 0, low: '0', high: String(high), offset: String(high) }];
    },
    fetchOffsets: async () => {
      calls.offsets++;
      return [{ topic: 't', partitions: [{ partition: 0, offset: String(committed), metadata: null }] }];
    },
    fetchTopicOffsetsByTimestamp: async () => {
      calls.byTime++;
      return [{ partition: 0, offset: String(high) }];
    },
  };
  return { admin: admin as unknown as Admin, calls };
}

it('concurrent checks share one look at the end of the topic', async () => {
  const { admin, calls } = fakeAdmin(5, 5);
  const progress = new CopyProgress(admin, 'g', 't', 0);
  const time = new Date(Date.now() - 1);
  const results = await Promise.all(Array.from({ length: 10 }, () => progress.behindAt(time)));
  expect(results.every((r) => r.length === 0)).toBe(true);
  expect(calls.ends).toBe(1);
});

it('a check for a time after the running look makes its own', async () => {
  const { admin, calls } = fakeAdmin(5, 5);
  const progress = new CopyProgress(admin, 'g', 't', 0);
  const first = progress.behindAt(new Date(Date.now() - 1));
  const later = progress.behindAt(new Date(Date.now() + 1000));
  await Promise.all([first, later]);
  expect(calls.ends).toBe(2);
});

it('behind: says which partition, where it is and what is needed; the consumer catching up clears it', async () => {
  const { admin } = fakeAdmin(7, 4);
  const progress = new CopyProgress(admin, 'g', 't', 0);
  expect(await progress.behindAt(new Date())).toEqual([{ partition: 0, reached: '4', needed: '7' }]);
  expect(await waitForCopies([{ name: 'orders', progress }], new Date(), { timeoutMs: 30, pollMs: 5 })).toBe(
    'orders: partition 0 at 4 of 7',
  );
  progress.handledUpTo(0, '6');
  expect(await waitForCopies([{ name: 'orders', progress }], new Date(), { timeoutMs: 30 })).toBeUndefined();
});
