import { MongoClient, type Db, type Document } from 'mongodb';
import { AppError } from '@marketplace/errors';
import type { OutgoingEvent } from '@marketplace/events';
import { ensureIndexes, type TenantOwner } from '@marketplace/store';
import {
  describeTimings,
  fillTo,
  growsWithData,
  methodOfCase,
  queryMethodsOf,
  stackEnv,
  uniqueName,
  timeLookups,
  type LookupCase,
  type LookupTiming,
} from '@marketplace/testing';
import type { AvailabilityDoc } from '../src/adapters/availability-repository';
import type { ModifierGroupDoc } from '../src/adapters/modifier-group-repository';
import type { ProductDoc } from '../src/adapters/product-repository';
import type {
  BranchDoc,
  CategoryDoc,
  ResourceDoc,
  ResourceRepository,
  TaxCategoryDoc,
} from '../src/adapters/resource-repository';
import { catalogIndexes, catalogStore, type CatalogStore } from '../src/adapters/store';
import type { CatalogResource } from '../src/domain/model';

// Every repository query, timed on the real engine with its collections at 1,000 and then 20,000
// documents of other tenants: an index lookup costs about the same at both sizes, a scan about 20
// times more. Each case also checks its answer, so it is a real query, and the cases cover every
// repository method, so a method added without a case fails here.

jest.setTimeout(180_000);

const OWNER: TenantOwner = { tenantId: 'tenant-under-test' };
/** The tenant the write cases write for, so the owner's own lists stay as seeded. */
const WRITER: TenantOwner = { tenantId: 'tenant-writing' };
/** Other tenants own the filler documents: 20,000 documents over 1,000 tenants. */
const OTHER_TENANTS = 1_000;
const at = new Date('2026-01-01T00:00:00Z');

const ids = {
  tax: 'tax-1',
  branch: 'branch-1',
  category: 'category-1',
  product: 'product-1',
  variant: 'variant-1',
  group: 'group-1',
  childGroup: 'group-2',
  option: 'option-1',
  childOption: 'option-2',
};

// Documents as the service stores them (0.5 to 1 KB each), for the owner under test and as filler.
const translations = (name: string) => ({
  de: `${name} (de)`,
  fr: `${name} (fr)`,
  it: `${name} (it)`,
  es: `${name} (es)`,
  nl: `${name} (nl)`,
  pl: `${name} (pl)`,
});
const owned = (tenantId: string, _id: string) => ({
  _id,
  tenantId,
  seq: 1,
  deleted: false,
  createdAt: at,
  updatedAt: at,
  _outbox: [],
  _outboxVersion: `version-${_id}`,
});

const taxCategory = (tenantId: string, id: string): TaxCategoryDoc => ({
  ...owned(tenantId, id),
  name: `Reduced rate ${id}`,
  rate: 7,
  isInclusive: true,
  translations: translations(`Reduced rate ${id}`),
});
const branch = (tenantId: string, id: string): BranchDoc => ({
  ...owned(tenantId, id),
  name: `Branch ${id}`,
  isActive: true,
  externalLocationId: `ext-${id}`,
  address: { line1: `Hauptstrasse ${id.length}`, line2: null, city: 'Berlin', postalCode: '10115', countryCode: 'DE' },
  coordinates: { latitude: 52.52, longitude: 13.405 },
  translations: translations(`Branch ${id}`),
});
const category = (tenantId: string, id: string): CategoryDoc => ({
  ...owned(tenantId, id),
  name: `Pizzas ${id}`,
  sortOrder: 1,
  translations: translations(`Pizzas ${id}`),
});
const product = (
  tenantId: string,
  id: string,
  refs = { category: `${id}-category`, tax: `${id}-tax`, group: `${id}-group`, variant: `${id}-variant` },
): ProductDoc => ({
  ...owned(tenantId, id),
  categoryId: refs.category,
  sortOrder: 1,
  sku: `SKU-${id}`,
  name: `Margherita ${id}`,
  imageUrl: `https://images.example.com/products/${id}.jpg`,
  taxCategoryId: refs.tax,
  translations: translations(`Margherita ${id}`),
  variants: [
    {
      id: refs.variant,
      sku: null,
      name: 'Small',
      priceMinor: 850,
      compareAtPriceMinor: null,
      isDefault: true,
      modifierGroupIds: [refs.group],
      translations: translations('Small'),
    },
    {
      id: `${refs.variant}-large`,
      sku: null,
      name: 'Large',
      priceMinor: 1250,
      compareAtPriceMinor: 1400,
      isDefault: false,
      modifierGroupIds: [refs.group],
      translations: translations('Large'),
    },
  ],
});
const modifierGroup = (
  tenantId: string,
  id: string,
  options: Array<{ id: string; children: string[] }> = [{ id: `${id}-option`, children: [] }],
): ModifierGroupDoc => ({
  ...owned(tenantId, id),
  name: `Extra toppings ${id}`,
  minSelections: 0,
  maxSelections: 2,
  isRequired: false,
  sortOrder: 1,
  translations: translations(`Extra toppings ${id}`),
  options: options.map((o) => ({
    id: o.id,
    name: `Cheese ${o.id}`,
    priceMinor: 100,
    isDefault: false,
    childGroupIds: o.children,
    translations: translations('Cheese'),
  })),
});
const availability = (tenantId: string, id: string): AvailabilityDoc => ({
  ...owned(tenantId, id),
  products: { [`${id}-p1`]: 1, [`${id}-p2`]: 2 },
  variants: { [`${id}-v1`]: 1, [`${id}-v2`]: 1, [`${id}-v3`]: 2 },
  modifierOptions: { [`${id}-o1`]: 2 },
});

/** Each collection's i-th filler document, of another tenant. */
const resourceFiller = (collection: string, make: (tenantId: string, id: string) => Document) => (i: number) =>
  make(`other-tenant-${i % OTHER_TENANTS}`, `${collection}-filler-${i}`);
const FILLERS: Record<string, (i: number) => Document> = {
  tax_categories: resourceFiller('tax_categories', taxCategory),
  branches: resourceFiller('branches', branch),
  categories: resourceFiller('categories', category),
  products: resourceFiller('products', (t, id) => product(t, id)),
  modifier_groups: resourceFiller('modifier_groups', (t, id) => modifierGroup(t, id)),
  availability: resourceFiller('availability', availability),
  // One document per tenant in these two: as many tenants as documents.
  tenant_meta: (i) => ({ _id: `tenant-${i}`, seq: 42, revision: `revision-of-tenant-${i}`, dirtyUntil: null }),
  tenant_locks: (i) => ({
    _id: `tenant-${i}`,
    token: `token-of-tenant-${i}`,
    expiresAt: new Date('2099-01-01T00:00:00Z'),
  }),
};

/** The writer's documents the delete cases delete, one per call (more than timeLookups and the re-measuring make). */
const DOOMED = 80;
const doomed = (label: string, k: number) => `${label}-doomed-${k}`;

/** A catalog event as the repositories stage it (what it says does not matter here). */
const event = (id: string): OutgoingEvent => ({
  topic: 'catalog',
  key: WRITER.tenantId,
  type: 'catalog.category.changed',
  data: {
    tenantId: WRITER.tenantId,
    currencyCode: 'EUR',
    sequence: 1,
    entity: 'category',
    id,
    deleted: false,
    state: { id, name: id, sortOrder: 0, translations: {}, createdAt: at.toISOString(), updatedAt: at.toISOString() },
  },
});

let client: MongoClient;
let db: Db;
let store: CatalogStore;

beforeAll(async () => {
  client = new MongoClient(stackEnv().MONGO_URL, { retryWrites: false, serverSelectionTimeoutMS: 5_000 });
  await client.connect();
  db = client.db(uniqueName('catalog-repositories'));
  await ensureIndexes(db, catalogIndexes);
  store = catalogStore(db, {
    waitMs: 5_000,
    ttlMs: 30_000,
    busy: () => new AppError('unavailable', 'resource.busy', 'busy'),
  });
  // The owner's catalog: one of each, linked as in a real menu.
  const t = OWNER.tenantId;
  await db.collection('tax_categories').insertOne(taxCategory(t, ids.tax) as Document);
  await db.collection('branches').insertOne(branch(t, ids.branch) as Document);
  await db.collection('categories').insertOne(category(t, ids.category) as Document);
  await db.collection('products').insertOne(
    product(t, ids.product, {
      category: ids.category,
      tax: ids.tax,
      group: ids.group,
      variant: ids.variant,
    }) as Document,
  );
  await db
    .collection('modifier_groups')
    .insertMany([
      modifierGroup(t, ids.group, [{ id: ids.option, children: [ids.childGroup] }]),
      modifierGroup(t, ids.childGroup, [{ id: ids.childOption, children: [] }]),
    ] as Document[]);
  await db.collection('availability').insertOne(availability(t, ids.branch) as Document);
  await db
    .collection('tenant_meta')
    .insertOne({ _id: t, seq: 1, revision: 'revision-1', dirtyUntil: null } as Document);
  const doomedOf = (collection: string, label: string, make: (tenantId: string, id: string) => Document) =>
    db
      .collection(collection)
      .insertMany(Array.from({ length: DOOMED }, (_, k) => make(WRITER.tenantId, doomed(label, k))));
  await doomedOf('tax_categories', 'tax category', taxCategory);
  await doomedOf('branches', 'branch', branch);
  await doomedOf('categories', 'category', category);
  await doomedOf('products', 'product', (t, id) => product(t, id));
  await doomedOf('modifier_groups', 'modifier group', (t, id) => modifierGroup(t, id));
});

afterAll(async () => {
  await db?.dropDatabase();
  await client?.close();
});

/**
 * Fills every collection to `total` documents of other tenants, one collection after the other:
 * filling all at once saturates the shared local engine, and other tests' requests time out.
 */
async function growTo(total: number): Promise<void> {
  for (const [collection, make] of Object.entries(FILLERS)) await fillTo(db.collection(collection), total, make);
}

type CheckedCase = LookupCase & { check(result: unknown): void | Promise<void> };
const sortedIds = (docs: unknown) => (docs as Array<{ _id: string }>).map((d) => d._id).sort();

/** The generic methods, on one resource collection: `seeded` is the owner's one document there. */
function resourceCases<R extends CatalogResource>(
  label: string,
  plural: string,
  repository: ResourceRepository<R>,
  seeded: string[],
  make: (tenantId: string, id: string) => ResourceDoc<R>,
): CheckedCase[] {
  let inserted = 0;
  let deleted = 0;
  const C = 'ResourceRepository';
  return [
    {
      name: `${C}.findLive: a ${label} by id`,
      run: () => repository.findLive(OWNER, seeded[0]!),
      check: (doc) => expect((doc as R | null)?._id).toBe(seeded[0]),
    },
    {
      name: `${C}.existsLive: a ${label} by id`,
      run: () => repository.existsLive(OWNER, seeded[0]!),
      check: (exists) => expect(exists).toBe(true),
    },
    {
      name: `${C}.listLive: the tenant's ${plural}`,
      run: () => repository.listLive(OWNER),
      check: (docs) => expect(sortedIds(docs)).toEqual([...seeded].sort()),
    },
    {
      name: `${C}.insertWithEvents: a new ${label}`,
      run: async () => {
        const id = `${label}-new-${inserted++}`;
        await repository.insertWithEvents(WRITER, make(WRITER.tenantId, id), [event(id)], at);
        return id;
      },
      check: async (id) => expect((await repository.findLive(WRITER, id as string))?._id).toBe(id),
    },
    {
      name: `${C}.replaceLive: a ${label} by id`,
      run: () =>
        repository.replaceLive(WRITER, `${label}-new-0`, { updatedAt: at } as Partial<R>, 2, [event('replace')], at),
      check: (matched) => expect(matched).toBe(true),
    },
    {
      name: `${C}.markDeleted: a ${label} by id`,
      // One of the writer's live documents per call (seeded in beforeAll), so every call deletes one.
      run: () => repository.markDeleted(WRITER, doomed(label, deleted++), 3, [event('delete')], at),
      check: (matched) => expect(matched).toBe(true),
    },
  ];
}

function allCases(): CheckedCase[] {
  const P = 'ProductRepository';
  const G = 'ModifierGroupRepository';
  const A = 'AvailabilityRepository';
  const M = 'TenantMetaRepository';
  let entries = 0;
  return [
    ...resourceCases('tax category', 'tax categories', store.taxCategories, [ids.tax], taxCategory),
    ...resourceCases('branch', 'branches', store.branches, [ids.branch], branch),
    ...resourceCases('category', 'categories', store.categories, [ids.category], category),
    ...resourceCases('product', 'products', store.products, [ids.product], (t, id) => product(t, id)),
    ...resourceCases('modifier group', 'modifier groups', store.modifierGroups, [ids.group, ids.childGroup], (t, id) =>
      modifierGroup(t, id),
    ),

    {
      name: `${P}.listLiveInCategory: the category's products`,
      run: () => store.products.listLiveInCategory(OWNER, ids.category),
      check: (docs) => expect(sortedIds(docs)).toEqual([ids.product]),
    },
    {
      name: `${P}.liveIdsInCategory: products keeping a category`,
      run: () => store.products.liveIdsInCategory(OWNER, ids.category),
      check: (found) => expect(found).toEqual([ids.product]),
    },
    {
      name: `${P}.liveIdsWithTaxCategory: products keeping a tax category`,
      run: () => store.products.liveIdsWithTaxCategory(OWNER, ids.tax),
      check: (found) => expect(found).toEqual([ids.product]),
    },
    {
      name: `${P}.liveIdsOfferingGroup: products keeping a modifier group`,
      run: () => store.products.liveIdsOfferingGroup(OWNER, ids.group),
      check: (found) => expect(found).toEqual([ids.product]),
    },
    {
      name: `${P}.liveProductAndVariantIds: what availability may name`,
      run: () => store.products.liveProductAndVariantIds(OWNER),
      check: (found) => expect(found).toEqual([{ id: ids.product, variantIds: [ids.variant, `${ids.variant}-large`] }]),
    },

    {
      name: `${G}.liveIdsAmong: the groups a product names`,
      run: () => store.modifierGroups.liveIdsAmong(OWNER, [ids.group, ids.childGroup, 'group-missing']),
      check: (found) => expect([...(found as string[])].sort()).toEqual([ids.group, ids.childGroup]),
    },
    {
      name: `${G}.nestingGraph: the tenant's groups and their children`,
      run: () => store.modifierGroups.nestingGraph(OWNER),
      check: (graph) =>
        expect(new Map([...(graph as Map<string, string[]>)].sort())).toEqual(
          new Map([
            [ids.group, [ids.childGroup]],
            [ids.childGroup, []],
          ]),
        ),
    },
    {
      name: `${G}.liveIdsNesting: groups keeping a group`,
      run: () => store.modifierGroups.liveIdsNesting(OWNER, ids.childGroup),
      check: (found) => expect(found).toEqual([ids.group]),
    },
    {
      name: `${G}.liveOptionIds: what availability may name`,
      run: () => store.modifierGroups.liveOptionIds(OWNER),
      check: (found) => expect([...(found as string[])].sort()).toEqual([ids.option, ids.childOption]),
    },

    {
      name: `${A}.findOfBranch: a branch's availability`,
      run: () => store.availability.findOfBranch(OWNER, ids.branch),
      check: (doc) => expect((doc as AvailabilityDoc | null)?._id).toBe(ids.branch),
    },
    {
      name: `${A}.listLive: the tenant's availability`,
      run: () => store.availability.listLive(OWNER),
      check: (docs) => expect(sortedIds(docs)).toEqual([ids.branch]),
    },
    {
      name: `${A}.saveOfBranch: a branch's availability (an update)`,
      run: () =>
        store.availability.saveOfBranch(
          WRITER,
          'writer-branch',
          { products: { [`p-${entries++}`]: 1 }, variants: {}, modifierOptions: {} },
          2,
          [event('availability')],
          at,
        ),
      check: async () =>
        expect(Object.keys((await store.availability.findOfBranch(WRITER, 'writer-branch'))?.products ?? {})).toEqual([
          `p-${entries - 1}`,
        ]),
    },

    {
      name: `${M}.startChange: the next sequence`,
      run: () => store.meta.startChange(WRITER, at),
      check: async (next) =>
        expect(next).toBe((await db.collection('tenant_meta').findOne({ _id: WRITER.tenantId as never }))?.seq),
    },
    {
      name: `${M}.finishChange: the write mark cleared`,
      run: () => store.meta.finishChange(WRITER),
      check: async () => expect((await store.meta.findRevision(WRITER))?.dirtyUntil).toBeNull(),
    },
    {
      name: `${M}.findRevision: the tenant's revision`,
      run: () => store.meta.findRevision(OWNER),
      check: (meta) => expect(meta).toEqual({ revision: 'revision-1', dirtyUntil: null }),
    },

    {
      name: 'TenantLockRepository.runExclusive: take and release the tenant lock',
      run: () => store.locks.runExclusive(OWNER, async () => 'held'),
      check: async (result) => {
        expect(result).toBe('held');
        expect(await db.collection('tenant_locks').findOne({ _id: OWNER.tenantId as never })).toBeNull();
      },
    },
  ];
}

it('serves every repository query from an index: the time per lookup does not grow with the data', async () => {
  const cases = allCases();
  const last = new Map<string, unknown>();
  const timed: LookupCase[] = cases.map((c) => ({
    name: c.name,
    run: async () => {
      const result = await c.run();
      last.set(c.name, result);
      return result;
    },
  }));
  const timings: LookupTiming[] = await timeLookups(timed, growTo);
  console.log(describeTimings(timings));

  // (1) No lookup grows with the data.
  const scans = timings.filter(growsWithData);
  if (scans.length > 0) throw new Error(`lookups that grow with the data (a scan):\n${describeTimings(timings)}`);

  // (2) Every repository method has a case, and every case is a repository method.
  const methods = new Set(Object.values(store).flatMap((repository: object) => queryMethodsOf(repository)));
  expect(new Set(cases.map((c) => methodOfCase(c.name)))).toEqual(methods);

  // (3) Each case, at 20,000 documents, found what it should.
  for (const c of cases) await c.check(last.get(c.name));
});

it("does not find another tenant's documents", async () => {
  const stranger: TenantOwner = { tenantId: 'other-tenant-1' };
  expect(await store.products.findLive(stranger, ids.product)).toBeNull();
  expect(await store.products.existsLive(stranger, ids.product)).toBe(false);
  expect(await store.products.replaceLive(stranger, ids.product, { name: 'stolen' }, 9, [event('x')], at)).toBe(false);
  expect(await store.modifierGroups.liveIdsAmong(stranger, [ids.group])).toEqual([]);
  expect(await store.availability.findOfBranch(stranger, ids.branch)).toBeNull();
  expect(await store.products.listLiveInCategory(stranger, ids.category)).toEqual([]);
});
