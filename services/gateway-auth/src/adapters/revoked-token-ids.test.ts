import { isAppError } from '@marketplace/errors';
import { RevokedTokenIds } from './revoked-token-ids';

describe('the revoked token ids of a gateway', () => {
  function setup(refreshMs = 5_000) {
    let time = 0;
    let stored: string[] = [];
    let failing = false;
    let reads = 0;
    const list = new RevokedTokenIds(
      async () => {
        reads++;
        if (failing) throw new Error('database away');
        return [...stored];
      },
      refreshMs,
      { clock: () => time },
    );
    return {
      list,
      advance: (ms: number) => void (time += ms),
      store: (ids: string[]) => void (stored = ids),
      fail: (value: boolean) => void (failing = value),
      reads: () => reads,
    };
  }

  it('reads the list on first use, then trusts it until it is twice the refresh interval old', async () => {
    const t = setup();
    t.store(['a']);
    expect(await t.list.isRevoked('a')).toBe(true);
    expect(await t.list.isRevoked('b')).toBe(false);
    expect(t.reads()).toBe(1);
    t.store(['a', 'b']);
    t.advance(10_000);
    expect(await t.list.isRevoked('b')).toBe(false); // 10 s: still the list read at 0
    t.advance(1);
    expect(await t.list.isRevoked('b')).toBe(true); // older than twice 5 s: read again first
    expect(t.reads()).toBe(2);
  });

  it('a background refresh brings other instances’ revocations', async () => {
    const t = setup();
    expect(await t.list.isRevoked('x')).toBe(false);
    t.store(['x']);
    t.advance(5_000);
    await t.list.refresh(); // what the timer does every refresh interval
    expect(await t.list.isRevoked('x')).toBe(true);
    expect(t.reads()).toBe(2);
  });

  it('has its own revocations at once, and keeps them through a read that started before them', async () => {
    let release: ((ids: string[]) => void) | undefined;
    let time = 0;
    const list = new RevokedTokenIds(() => new Promise<string[]>((resolve) => (release = resolve)), 5_000, {
      clock: () => time,
    });
    const first = list.refresh();
    release!([]);
    await first;
    // A read starts, then this instance revokes a token, then the read ends without it.
    time = 1;
    const slow = list.refresh();
    time = 2;
    list.add('mine');
    expect(await list.isRevoked('mine')).toBe(true);
    release!([]);
    await slow;
    expect(await list.isRevoked('mine')).toBe(true);
    // A read that started after the revocation decides (the store has it by then).
    time = 3;
    const next = list.refresh();
    release!(['mine']);
    await next;
    expect(await list.isRevoked('mine')).toBe(true);
    time = 4;
    const after = list.refresh();
    release!([]); // (were it gone from the store, it would be gone here too)
    await after;
    expect(await list.isRevoked('mine')).toBe(false);
  });

  it('answers 503 rather than trust a list it cannot read again', async () => {
    const t = setup();
    t.fail(true);
    const refused = await t.list.isRevoked('a').catch((error: unknown) => error);
    expect(isAppError(refused) && { kind: refused.kind, code: refused.code }).toEqual({
      kind: 'unavailable',
      code: 'service.unavailable',
    });
    t.fail(false);
    expect(await t.list.isRevoked('a')).toBe(false);
    t.fail(true);
    t.advance(9_000);
    await expect(t.list.refresh()).rejects.toThrow('database away'); // a background read fails...
    expect(await t.list.isRevoked('a')).toBe(false); // ...the list is still young enough
    t.advance(1_001);
    await expect(t.list.isRevoked('a')).rejects.toMatchObject({ code: 'service.unavailable' });
  });

  it('reads once for concurrent checks', async () => {
    const t = setup();
    await Promise.all(Array.from({ length: 20 }, () => t.list.isRevoked('a')));
    expect(t.reads()).toBe(1);
  });
});
