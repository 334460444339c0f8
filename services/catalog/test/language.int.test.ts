import { catalogTenant, created, startCatalogCluster, type CatalogCluster, type CatalogTenant } from './support/cluster';

// The language of partner reads comes from the `language` query parameter alone (README, "Language").
let cluster: CatalogCluster;
let t: CatalogTenant;
let branch: any;
let product: any;

beforeAll(async () => {
  cluster = await startCatalogCluster();
  t = await catalogTenant(cluster);
  branch = await created(t, '/branches', { name: 'Mitte' });
  const category = await created(t, '/categories', { name: 'Drinks', translations: { de: 'Getränke', 'fr-CA': 'Boissons' } });
  const group = await created(t, '/modifier-groups', { name: 'Ice', minSelections: 0, maxSelections: 1, isRequired: false, options: [{ name: 'With ice', price: 0, translations: { de: 'Mit Eis' } }] });
  product = await created(t, '/products', {
    categoryId: category.id,
    name: 'Lemonade',
    translations: { de: 'Limonade' },
    variants: [{ name: 'Glass', price: 3, isDefault: true, modifierGroupIds: [group.id] }], // variant name not translated
  });
}, 60_000);

afterAll(async () => {
  await cluster?.stop();
});

const namesIn = async (query: string, headers: Record<string, string> = {}) => {
  const res = await fetch(`${cluster.gateway.url}/api/partner/v1/catalog/branches/${branch.id}/products${query}`, { headers: { authorization: `ApiKey ${t.apiKey}`, ...headers } });
  const body = (await res.json()) as any;
  const c = body.categories[0];
  return { resolvedLanguage: body.resolvedLanguage, category: c.name, product: c.products[0].name, variant: c.products[0].variants[0].name };
};

it.each([
  ['', 'en', 'Drinks', 'Lemonade'],
  ['?language=de', 'de', 'Getränke', 'Limonade'],
  ['?language=DE', 'de', 'Getränke', 'Limonade'],
  ['?language=de-AT', 'de', 'Getränke', 'Limonade'], // base language
  ['?language=fr', 'fr-CA', 'Boissons', 'Lemonade'], // a regional form of the base; missing names fall back
  ['?language=it', 'en', 'Drinks', 'Lemonade'], // not in the catalog: the default
  ['?language=xx', 'en', 'Drinks', 'Lemonade'], // unknown: the default, never an error
  ['?language=', 'en', 'Drinks', 'Lemonade'],
  ['?language=de&language=fr', 'en', 'Drinks', 'Lemonade'], // repeated: ignored
])('%s → %s', async (query, resolved, category, productName) => {
  expect(await namesIn(query)).toEqual({ resolvedLanguage: resolved, category, product: productName, variant: 'Glass' });
});

it('ignores Accept-Language', async () => {
  expect((await namesIn('', { 'accept-language': 'de' })).resolvedLanguage).toBe('en');
  expect((await namesIn('?language=en', { 'accept-language': 'de' })).product).toBe('Lemonade');
});

it('translates the product detail down to the options', async () => {
  const res = await t.read(`/branches/${branch.id}/products/${product.id}?language=de`);
  expect(res.body.resolvedLanguage).toBe('de');
  expect(res.body.name).toBe('Limonade');
  expect(res.body.variants[0].modifierGroups[0].name).toBe('Ice');
  expect(res.body.variants[0].modifierGroups[0].options[0].name).toBe('Mit Eis');
});

it('works from another default language', async () => {
  const de = await catalogTenant(cluster, { defaultLanguage: 'de' });
  const b = await created(de, '/branches', { name: 'Altstadt' });
  const c = await created(de, '/categories', { name: 'Getränke', translations: { en: 'Drinks' } });
  await created(de, '/products', { categoryId: c.id, name: 'Wasser', translations: { en: 'Water' }, variants: [{ name: 'Flasche', price: 2, isDefault: true }] });
  const plain = await de.read(`/branches/${b.id}/products`);
  expect([plain.body.resolvedLanguage, plain.body.categories[0].name]).toEqual(['de', 'Getränke']);
  const english = await de.read(`/branches/${b.id}/products?language=en-US`);
  expect([english.body.resolvedLanguage, english.body.categories[0].products[0].name]).toEqual(['en', 'Water']);
});
