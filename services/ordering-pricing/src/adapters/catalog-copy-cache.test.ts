import type { TenantOwner } from '@marketplace/store';
import type { CatalogCopyStore } from '../usecases/ports';
import { CopyCache } from './catalog-copy-cache';
import type { CatalogCopyDoc } from './catalog-copy-repository';

/** The copy's reads, in memory, counted: the tenant's sequence and its documents by id. */
function countingStore(docs: string[]) {
  const calls = { sequence: 0, byIds: 0 };
  let sequence = 1;
  const doc = (id: string): CatalogCopyDoc => ({
    _id: id,
    tenantId: 't1',
    entity: 'product',
    sequence,
    deleted: false,
    state: {},
  });
  const store = {
    async findSequence() {
      calls.sequence++;
      return sequence;
    },
    async findByIds(_owner: TenantOwner, ids: readonly string[]) {
      calls.byIds++;
      return new Map(ids.filter((id) => docs.includes(id)).map((id) => [id, doc(id)]));
    },
  } as unknown as CatalogCopyStore;
  return { store, calls, move: () => sequence++ };
}

const owner = { tenantId: 't1' } as TenantOwner;

describe('the catalog copy cache', () => {
  it("reads the tenant's sequence once for all the loads of one order's session", async () => {
    const { store, calls } = countingStore(['p1', 'p2', 'g1']);
    const reader = new CopyCache(store).session();
    await Promise.all([reader.load(owner, ['p1']), reader.load(owner, ['p2'])]);
    await reader.load(owner, ['g1']);
    await reader.load(owner, []);
    expect(calls.sequence).toBe(1);
  });

  it('reads the sequence at every load outside a session, and each new session reads it again', async () => {
    const { store, calls } = countingStore(['p1']);
    const cache = new CopyCache(store);
    await cache.load(owner, ['p1']);
    await cache.load(owner, ['p1']);
    await cache.session().load(owner, ['p1']);
    await cache.session().load(owner, ['p1']);
    expect(calls.sequence).toBe(4);
  });

  it('reads documents it holds for the current sequence from memory, and again once the sequence moved', async () => {
    const { store, calls, move } = countingStore(['p1']);
    const cache = new CopyCache(store);
    expect((await cache.session().load(owner, ['p1', 'gone'])).get('gone')).toBeNull();
    await cache.session().load(owner, ['p1', 'gone']);
    expect(calls.byIds).toBe(1);
    move();
    const after = await cache.session().load(owner, ['p1']);
    expect(calls.byIds).toBe(2);
    expect(after.get('p1')?.sequence).toBe(2);
  });
});
