import {
  catalogTenant,
  created,
  LOCATION,
  startCatalogCluster,
  type CatalogCluster,
  type CatalogTenant,
} from './support/cluster';

// The language of partner reads comes from the `language` query parameter alone (README, "Language"):
// exact tag, then its base language, then a regional form of it, then the tenant's default.
let cluster: CatalogCluster;
let t: CatalogTenant;
let branch: any;
let product: any;
let plain: CatalogTenant;
let plainBranch: any;

beforeAll(async () => {
  cluster = await startCatalogCluster();
  [t, plain] = await Promise.all([catalogTenant(cluster), catalogTenant(cluster)]);
  branch = await created(t, '/branches', { name: 'Mitte', ...LOCATION });
  const category = await created(t, '/categories', {
    name: 'Drinks',
    translations: { de: 'Getränke', 'fr-CA': 'Boissons', 'zh-hant': '飲品' },
  });
  const group = await created(t, '/modifier-groups', {
    name: 'Ice',
    minSelections: 0,
    maxSelections: 1,
    isRequired: false,
    translations: { 'fr-CA': 'Glace' },
    options: [
      { name: 'With ice', price: 0, translations: { de: 'Mit Eis' } },
      { name: 'No ice', price: 0 },
    ],
  });
  product = await created(t, '/products', {
    categoryId: category.id,
    name: 'Lemonade',
    translations: { de: 'Limonade' },
    variants: [
      { name: 'Glass', price: 3, isDefault: true, modifierGroupIds: [group.id] }, // not translated
      { name: 'Bottle', price: 5, isDefault: false, translations: { de: 'Flasche' } },
    ],
  });
  // A tenant with German translations only.
  plainBranch = await created(plain, '/branches', { name: 'Hafen', ...LOCATION });
  const c = await created(plain, '/categories', { name: 'Food', translations: { de: 'Essen' } });
  await created(plain, '/products', {
    categoryId: c.id,
    name: 'Soup',
    variants: [{ name: 'Bowl', price: 4, isDefault: true }],
  });
}, 60_000);

afterAll(async () => {
  await cluster?.stop();
});

async function namesIn(query: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${cluster.gateway.url}/api/partner/v1/catalog/branches/${branch.id}/products${query}`, {
    headers: { authorization: `ApiKey ${t.apiKey}`, ...headers },
    signal: AbortSignal.timeout(10_000),
  });
  expect({ query, status: res.status }).toEqual({ query, status: 200 });
  const body = (await res.json()) as any;
  const c = body.categories[0];
  return {
    resolvedLanguage: body.resolvedLanguage,
    category: c.name,
    product: c.products[0].name,
    variants: c.products[0].variants.map((v: any) => v.name),
  };
}

it.each([
  ['', 'en', 'Drinks', 'Lemonade', ['Glass', 'Bottle']],
  ['?language=en', 'en', 'Drinks', 'Lemonade', ['Glass', 'Bottle']],
  ['?language=de', 'de', 'Getränke', 'Limonade', ['Glass', 'Flasche']], // an untranslated variant keeps its default name
  ['?language=DE', 'de', 'Getränke', 'Limonade', ['Glass', 'Flasche']],
  ['?language=de-AT', 'de', 'Getränke', 'Limonade', ['Glass', 'Flasche']], // base language
  ['?language=DE-at', 'de', 'Getränke', 'Limonade', ['Glass', 'Flasche']],
  ['?language=fr', 'fr-CA', 'Boissons', 'Lemonade', ['Glass', 'Bottle']], // a regional form of the base; missing names fall back
  ['?language=fr-FR', 'fr-CA', 'Boissons', 'Lemonade', ['Glass', 'Bottle']],
  ['?language=zh-Hant', 'zh-Hant', '飲品', 'Lemonade', ['Glass', 'Bottle']],
  ['?language=en-GB', 'en', 'Drinks', 'Lemonade', ['Glass', 'Bottle']],
  ['?language=it', 'en', 'Drinks', 'Lemonade', ['Glass', 'Bottle']], // not in the catalog: the default
  ['?language=xx', 'en', 'Drinks', 'Lemonade', ['Glass', 'Bottle']], // unknown: the default, never an error
  ['?language=', 'en', 'Drinks', 'Lemonade', ['Glass', 'Bottle']],
  ['?language=de_AT', 'en', 'Drinks', 'Lemonade', ['Glass', 'Bottle']],
  ['?language=de%2Cfr', 'en', 'Drinks', 'Lemonade', ['Glass', 'Bottle']], // a list is no tag
  ['?language=de&language=fr', 'en', 'Drinks', 'Lemonade', ['Glass', 'Bottle']], // repeated: ignored
  ['?language[]=de', 'en', 'Drinks', 'Lemonade', ['Glass', 'Bottle']],
  ['?lang=de', 'en', 'Drinks', 'Lemonade', ['Glass', 'Bottle']],
])('%s → %s', async (query, resolved, category, productName, variants) => {
  expect(await namesIn(query)).toEqual({ resolvedLanguage: resolved, category, product: productName, variants });
});

it('ignores Accept-Language', async () => {
  expect(await namesIn('', { 'accept-language': 'de' })).toEqual({
    resolvedLanguage: 'en',
    category: 'Drinks',
    product: 'Lemonade',
    variants: ['Glass', 'Bottle'],
  });
  expect((await namesIn('', { 'accept-language': 'de-DE,de;q=0.9,fr;q=0.5' })).resolvedLanguage).toBe('en');
  expect((await namesIn('?language=en', { 'accept-language': 'de' })).product).toBe('Lemonade');
  expect((await namesIn('?language=de', { 'accept-language': 'en' })).product).toBe('Limonade');
});

it('translates the product detail down to the options, each name falling back on its own', async () => {
  const de = await t.read(`/branches/${branch.id}/products/${product.id}?language=de`);
  expect(de.body.resolvedLanguage).toBe('de');
  expect(de.body.name).toBe('Limonade');
  expect(de.body.variants.map((v: any) => v.name)).toEqual(['Glass', 'Flasche']);
  const ice = de.body.variants[0].modifierGroups[0];
  expect([ice.name, ice.options.map((o: any) => o.name)]).toEqual(['Ice', ['Mit Eis', 'No ice']]);
  const fr = await t.read(`/branches/${branch.id}/products/${product.id}?language=fr`);
  expect(fr.body.resolvedLanguage).toBe('fr-CA');
  expect([
    fr.body.name,
    fr.body.variants[0].modifierGroups[0].name,
    fr.body.variants[0].modifierGroups[0].options[0].name,
  ]).toEqual(['Lemonade', 'Glace', 'With ice']);
  const plainDetail = await t.read(`/branches/${branch.id}/products/${product.id}`);
  expect([plainDetail.body.resolvedLanguage, plainDetail.body.name]).toEqual(['en', 'Lemonade']);
});

it('answers the default language for a language the tenant has no translation in', async () => {
  for (const query of ['?language=fr', '?language=fr-CA', '?language=es']) {
    const res = await plain.read(`/branches/${plainBranch.id}/products${query}`);
    expect({ query, resolvedLanguage: res.body.resolvedLanguage, category: res.body.categories[0].name }).toEqual({
      query,
      resolvedLanguage: 'en',
      category: 'Food',
    });
  }
  const de = await plain.read(`/branches/${plainBranch.id}/products?language=de-CH`);
  expect([de.body.resolvedLanguage, de.body.categories[0].name, de.body.categories[0].products[0].name]).toEqual([
    'de',
    'Essen',
    'Soup',
  ]);
});

it('works from another default language', async () => {
  const de = await catalogTenant(cluster, { defaultLanguage: 'de' });
  const b = await created(de, '/branches', { name: 'Altstadt', ...LOCATION });
  const c = await created(de, '/categories', { name: 'Getränke', translations: { en: 'Drinks' } });
  const p = await created(de, '/products', {
    categoryId: c.id,
    name: 'Wasser',
    translations: { en: 'Water' },
    variants: [{ name: 'Flasche', price: 2, isDefault: true }],
  });
  // Its default language cannot be a translation.
  const refused = await de.manage('POST', '/categories', { name: 'Speisen', translations: { de: 'Speisen' } });
  expect([refused.status, Object.keys(refused.body.errors)]).toEqual([400, ['translations.de']]);
  const view = async (query: string) => {
    const res = await de.read(`/branches/${b.id}/products${query}`);
    const cat = res.body.categories[0];
    return [res.body.resolvedLanguage, cat.name, cat.products[0].name, cat.products[0].variants[0].name];
  };
  expect(await view('')).toEqual(['de', 'Getränke', 'Wasser', 'Flasche']);
  expect(await view('?language=de')).toEqual(['de', 'Getränke', 'Wasser', 'Flasche']);
  expect(await view('?language=de-AT')).toEqual(['de', 'Getränke', 'Wasser', 'Flasche']);
  expect(await view('?language=en')).toEqual(['en', 'Drinks', 'Water', 'Flasche']);
  expect(await view('?language=en-US')).toEqual(['en', 'Drinks', 'Water', 'Flasche']);
  expect(await view('?language=fr')).toEqual(['de', 'Getränke', 'Wasser', 'Flasche']);
  expect(await view('?language=xx')).toEqual(['de', 'Getränke', 'Wasser', 'Flasche']);
  expect((await de.read(`/branches/${b.id}/products/${p.id}?language=en`)).body.name).toBe('Water');
});

it('compares with a default language given in another case in its canonical form', async () => {
  const at = await catalogTenant(cluster, { defaultLanguage: 'DE-at' });
  const b = await created(at, '/branches', { name: 'Wien', ...LOCATION });
  const refused = await at.manage('POST', '/categories', { name: 'Getränke', translations: { 'de-AT': 'Getränke' } });
  expect([refused.status, Object.keys(refused.body.errors ?? {})]).toEqual([400, ['translations.de-AT']]);
  const c = await created(at, '/categories', { name: 'Getränke', translations: { de: 'Getränke (DE)', en: 'Drinks' } });
  await created(at, '/products', {
    categoryId: c.id,
    name: 'Almdudler',
    variants: [{ name: 'Flasche', price: 3, isDefault: true }],
  });
  const view = async (query: string) => {
    const res = await at.read(`/branches/${b.id}/products${query}`);
    return [res.body.resolvedLanguage, res.body.categories[0].name];
  };
  expect(await view('')).toEqual(['de-AT', 'Getränke']);
  expect(await view('?language=de-at')).toEqual(['de-AT', 'Getränke']);
  expect(await view('?language=de')).toEqual(['de', 'Getränke (DE)']);
  expect(await view('?language=en')).toEqual(['en', 'Drinks']);
  expect(await view('?language=it')).toEqual(['de-AT', 'Getränke']);
});

it('picks up a new translation language at once', async () => {
  expect((await namesIn('?language=it')).resolvedLanguage).toBe('en');
  const cat = (await t.manage('GET', '/categories')).body[0];
  expect(
    (
      await t.manage('PUT', `/categories/${cat.id}`, {
        name: 'Drinks',
        translations: { ...cat.translations, it: 'Bevande' },
      })
    ).status,
  ).toBe(200);
  expect(await namesIn('?language=it')).toEqual({
    resolvedLanguage: 'it',
    category: 'Bevande',
    product: 'Lemonade',
    variants: ['Glass', 'Bottle'],
  });
});
