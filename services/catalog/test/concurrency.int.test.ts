import { waitFor } from '@marketplace/testing';
import {
  catalogDb,
  catalogTenant,
  catalogTopic,
  created,
  LOCATION,
  startCatalogCluster,
  startSecondInstance,
  throughGateway,
  type CatalogCluster,
  type CatalogTenant,
  type SecondInstance,
} from './support/cluster';

// Changes of one tenant are applied one at a time, across catalog instances: concurrent writes get
// distinct sequences, none is lost, and no two of them together can make what each alone would
// have been refused (a nesting cycle). A write that cannot get its turn within 5 s is 503.
let cluster: CatalogCluster;
let second: SecondInstance;
let topic: Awaited<ReturnType<typeof catalogTopic>>;

beforeAll(async () => {
  cluster = await startCatalogCluster();
  second = await startSecondInstance(cluster);
  topic = await catalogTopic('catalog-concurrency-it');
}, 90_000);

afterAll(async () => {
  await topic?.stop();
  await second?.stop();
  await cluster?.stop();
});

/** The tenant through both instances: even calls through gateway 1, odd ones through gateway 2. */
async function tenantOnBoth(): Promise<[CatalogTenant, CatalogTenant]> {
  const one = await catalogTenant(cluster);
  return [one, await throughGateway(one, second.gateway)];
}

const groupBody = (name: string, children: string[] = []) => ({
  name,
  minSelections: 0,
  maxSelections: 1,
  isRequired: false,
  options: [{ name: 'o', price: 0, childGroupIds: children }],
});

/** Whether the tenant's stored groups nest in a cycle (read back through the tenant API). */
async function storedCycle(t: CatalogTenant): Promise<string[] | undefined> {
  const groups: any[] = (await t.manage('GET', '/modifier-groups')).body;
  const children = new Map(groups.map((g) => [g.id, g.options.flatMap((o: any) => o.childGroupIds)]));
  const state = new Map<string, 'open' | 'done'>();
  const visit = (id: string, path: string[]): string[] | undefined => {
    if (state.get(id) === 'open') return [...path, id];
    if (state.get(id) === 'done') return undefined;
    state.set(id, 'open');
    for (const child of children.get(id) ?? []) {
      const found = visit(child, [...path, id]);
      if (found) return found;
    }
    state.set(id, 'done');
    return undefined;
  };
  for (const id of children.keys()) {
    const found = visit(id, []);
    if (found) return found;
  }
  return undefined;
}

it('creates 20 products at once, through two instances: all stored, each with its own sequence', async () => {
  const [one, two] = await tenantOnBoth();
  const category = await created(one, '/categories', { name: 'Pizza' });
  const results = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      (i % 2 === 0 ? one : two).manage('POST', '/products', {
        categoryId: category.id,
        name: `P${i}`,
        variants: [{ name: 'S', price: 1 + i, isDefault: true }],
      }),
    ),
  );
  expect(results.map((r) => r.status)).toEqual(Array(20).fill(201));
  const ids = results.map((r) => r.body.id);
  expect(new Set(ids).size).toBe(20);
  const stored: any[] = (await one.manage('GET', '/products')).body;
  expect(stored.map((p) => p.name).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `P${i}`).sort());
  const events = await waitFor(
    `20 product events of tenant ${one.tenantId}`,
    () => {
      const products = topic.of(one.tenantId).filter((e) => e.type === 'catalog.product.changed');
      return products.length >= 20 && products;
    },
    30_000,
  );
  expect(events.map((e) => e.data.id).sort()).toEqual([...ids].sort());
  const sequences = events.map((e) => e.data.sequence);
  expect(new Set(sequences).size).toBe(20);
  // Published in the order applied: one tenant's events are in sequence order on the topic.
  expect(sequences).toEqual([...sequences].sort((x, y) => x - y));
  const categorySequence = topic.of(one.tenantId).find((e) => e.type === 'catalog.category.changed')!.data.sequence;
  expect(Math.min(...sequences)).toBeGreaterThan(categorySequence);
  // Each product shows its own price on the partner side too.
  const branch = await created(two, '/branches', { name: 'Mitte', ...LOCATION });
  const list = await one.read(`/branches/${branch.id}/products`);
  expect(list.body.categories[0].products).toHaveLength(20);
});

it('applies 10 concurrent replacements of one product one after the other: each published, the last one stored and served', async () => {
  const [one, two] = await tenantOnBoth();
  const category = await created(one, '/categories', { name: 'Pizza' });
  const branch = await created(one, '/branches', { name: 'Mitte', ...LOCATION });
  const pizza = await created(one, '/products', {
    categoryId: category.id,
    name: 'Margherita',
    variants: [{ name: 'S', price: 5, isDefault: true }],
  });
  const prices = Array.from({ length: 10 }, (_, i) => 10 + i);
  const results = await Promise.all(
    prices.map((price, i) =>
      (i % 2 === 0 ? one : two).manage('PUT', `/products/${pizza.id}`, {
        categoryId: category.id,
        name: 'Margherita',
        variants: [{ id: pizza.variants[0].id, name: 'S', price, isDefault: true }],
      }),
    ),
  );
  expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
  const events = await waitFor(
    `11 product events of ${pizza.id}`,
    () => {
      const mine = topic.of(one.tenantId).filter((e) => e.type === 'catalog.product.changed' && e.data.id === pizza.id);
      return mine.length >= 11 && mine;
    },
    30_000,
  );
  const sequences = events.map((e) => e.data.sequence);
  expect(new Set(sequences).size).toBe(11);
  expect(sequences).toEqual([...sequences].sort((x, y) => x - y));
  expect(
    events
      .slice(1)
      .map((e) => e.data.state.variants[0].priceMinor)
      .sort((x, y) => x - y),
  ).toEqual(prices.map((p) => p * 100));
  // The stored state is that of the highest sequence: a consumer keeping a copy ends where the catalog is.
  const last = events.at(-1)!.data.state.variants[0].priceMinor / 100;
  expect((await one.manage('GET', `/products/${pizza.id}`)).body.variants[0].price).toBe(last);
  expect((await two.read(`/branches/${branch.id}/products/${pizza.id}`)).body.variants[0].price).toBe(last);
  expect((await one.read(`/branches/${branch.id}/products`)).body.categories[0].products[0].startingPrice).toBe(last);
});

it('lets at most one of 10 concurrent nestings through when any two of them would form a cycle', async () => {
  const [one, two] = await tenantOnBoth();
  const groups: any[] = [];
  for (let i = 0; i < 10; i++) groups.push(await created(one, '/modifier-groups', groupBody(`G${i}`)));
  // Group i would nest every other group: any two of these together are a cycle (i → j → i).
  const results = await Promise.all(
    groups.map((g, i) =>
      (i % 2 === 0 ? one : two).manage(
        'PUT',
        `/modifier-groups/${g.id}`,
        groupBody(
          `G${i}`,
          groups.filter((_, j) => j !== i).map((x) => x.id),
        ),
      ),
    ),
  );
  const statuses = results.map((r) => r.status);
  expect(statuses.filter((s) => s === 200)).toHaveLength(1);
  expect(statuses.filter((s) => s === 400)).toHaveLength(9);
  for (const r of results.filter((x) => x.status === 400))
    expect({ code: r.body.code, options: r.body.errors.options }).toEqual({
      code: 'request.invalid',
      options: [expect.stringMatching(/cycle/)],
    });
  expect(await storedCycle(one)).toBeUndefined();
});

it('lets only one direction of A → B and B → A through, five requests each at once', async () => {
  const [one, two] = await tenantOnBoth();
  const a = await created(one, '/modifier-groups', groupBody('A'));
  const b = await created(one, '/modifier-groups', groupBody('B'));
  const results = await Promise.all(
    Array.from({ length: 10 }, (_, i) =>
      (i % 2 === 0 ? one : two).manage(
        'PUT',
        `/modifier-groups/${i < 5 ? a.id : b.id}`,
        i < 5 ? groupBody('A', [b.id]) : groupBody('B', [a.id]),
      ),
    ),
  );
  const aToB = results.slice(0, 5).map((r) => r.status);
  const bToA = results.slice(5).map((r) => r.status);
  // The first one applied wins; the same nesting again is no cycle, the opposite one always is.
  expect([aToB, bToA]).toContainEqual(Array(5).fill(200));
  expect([aToB, bToA]).toContainEqual(Array(5).fill(400));
  expect(await storedCycle(one)).toBeUndefined();
  // The partner detail of a product using A ends (no infinite nesting).
  const category = await created(one, '/categories', { name: 'C' });
  const branch = await created(one, '/branches', { name: 'Mitte', ...LOCATION });
  const p = await created(one, '/products', {
    categoryId: category.id,
    name: 'P',
    variants: [{ name: 'S', price: 1, isDefault: true, modifierGroupIds: [a.id] }],
  });
  expect((await two.read(`/branches/${branch.id}/products/${p.id}`)).status).toBe(200);
});

it('lets all but one of a ring of concurrent nestings through', async () => {
  const [one, two] = await tenantOnBoth();
  const ring: any[] = [];
  for (let i = 0; i < 6; i++) ring.push(await created(one, '/modifier-groups', groupBody(`R${i}`)));
  const results = await Promise.all(
    ring.map((g, i) =>
      (i % 2 === 0 ? one : two).manage(
        'PUT',
        `/modifier-groups/${g.id}`,
        groupBody(`R${i}`, [ring[(i + 1) % ring.length].id]),
      ),
    ),
  );
  expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 400]);
  expect(await storedCycle(one)).toBeUndefined();
});

it('answers 503 resource.busy with Retry-After: 1 when another change holds the tenant for more than 5 s, and changes nothing', async () => {
  const t = await catalogTenant(cluster);
  const category = await created(t, '/categories', { name: 'Before' });
  const { db, close } = await catalogDb(cluster);
  try {
    // Another writer holds the tenant's lock (as one that is still working would).
    await db
      .collection('tenant_locks')
      .insertOne({ _id: t.tenantId as never, token: 'someone-else', expiresAt: new Date(Date.now() + 60_000) });
    const started = Date.now();
    const res = await t.manage('PUT', `/categories/${category.id}`, { name: 'After' });
    const waited = Date.now() - started;
    expect({
      status: res.status,
      code: res.body?.code,
      retryAfter: res.headers.get('retry-after'),
      type: res.headers.get('content-type'),
    }).toEqual({
      status: 503,
      code: 'resource.busy',
      retryAfter: '1',
      type: expect.stringMatching(/^application\/problem\+json/),
    });
    expect(waited).toBeGreaterThanOrEqual(4_500);
    expect(waited).toBeLessThan(10_000);
    expect((await t.manage('GET', `/categories/${category.id}`)).body.name).toBe('Before');
    // Once the other change is over, the next one goes through.
    await db.collection('tenant_locks').deleteOne({ _id: t.tenantId as never });
    expect((await t.manage('PUT', `/categories/${category.id}`, { name: 'After' })).body.name).toBe('After');
    // Other tenants were never blocked, and a lock whose holder died (expired) is taken over at once.
    await db
      .collection('tenant_locks')
      .insertOne({ _id: t.tenantId as never, token: 'dead', expiresAt: new Date(Date.now() - 1_000) });
    const takeover = Date.now();
    expect((await t.manage('PUT', `/categories/${category.id}`, { name: 'Again' })).status).toBe(200);
    expect(Date.now() - takeover).toBeLessThan(2_000);
  } finally {
    await db
      .collection('tenant_locks')
      .deleteOne({ _id: t.tenantId as never, token: { $in: ['someone-else', 'dead'] } });
    await close();
  }
  const events = await waitFor(
    'the category events of the busy tenant',
    () => {
      const mine = topic.of(t.tenantId);
      return mine.length >= 3 && mine;
    },
    20_000,
  );
  expect(events.map((e) => e.data.state.name)).toEqual(['Before', 'After', 'Again']); // nothing for the refused change
});

it('does not block one tenant’s changes while another tenant is locked', async () => {
  const [blocked, free] = await Promise.all([catalogTenant(cluster), catalogTenant(cluster)]);
  const { db, close } = await catalogDb(cluster);
  try {
    await db
      .collection('tenant_locks')
      .insertOne({ _id: blocked.tenantId as never, token: 'someone-else', expiresAt: new Date(Date.now() + 60_000) });
    const started = Date.now();
    expect((await free.manage('POST', '/categories', { name: 'Free' })).status).toBe(201);
    expect(Date.now() - started).toBeLessThan(2_000);
  } finally {
    await db.collection('tenant_locks').deleteOne({ _id: blocked.tenantId as never });
    await close();
  }
});
