// Seed step: a realistic menu for the demo tenant, through the tenant catalog API. Idempotent: each
// resource is found by name and replaced (PUT), or created (POST); variants and options keep their
// ids (matched by name), so availability set by an earlier run stays attached. Nothing is deleted:
// what a tenant added by hand stays.

const CATALOG = '/api/tenant/v1/catalog';

const BRANCHES = [
  {
    name: 'Demo Bistro Mitte',
    isActive: true,
    externalLocationId: 'POS-MITTE-01',
    address: { line1: 'Torstraße 1', line2: null, city: 'Berlin', postalCode: '10119', countryCode: 'DE' },
    coordinates: { latitude: 52.5291, longitude: 13.4017 },
    translations: { de: 'Demo Bistro Mitte' },
  },
  {
    name: 'Demo Bistro Hafen',
    isActive: true,
    externalLocationId: null,
    address: { line1: 'Am Hafen 7', line2: null, city: 'Hamburg', postalCode: '20457', countryCode: 'DE' },
    coordinates: { latitude: 53.5413, longitude: 9.9846 },
    translations: { de: 'Demo Bistro Hafen' },
  },
  {
    name: 'Demo Bistro Altstadt (closed)',
    isActive: false,
    externalLocationId: null,
    translations: { de: 'Demo Bistro Altstadt (geschlossen)' },
  },
];

const TAXES = [
  { name: 'Food 7% incl.', rate: 7, isInclusive: true, translations: { de: 'Speisen 7 % inkl.' } },
  { name: 'Drinks 19% excl.', rate: 19, isInclusive: false, translations: { de: 'Getränke 19 % zzgl.' } },
];

const CATEGORIES = [
  { name: 'Pizza', sortOrder: 1, translations: { de: 'Pizza' } },
  { name: 'Pasta', sortOrder: 2, translations: { de: 'Pasta' } },
  { name: 'Salads', sortOrder: 3, translations: { de: 'Salate' } },
  { name: 'Drinks', sortOrder: 4, translations: { de: 'Getränke' } },
  { name: 'Desserts', sortOrder: 5, translations: { de: 'Desserts' } },
];

const option = (name, de, price, extra = {}) => ({ name, price, translations: { de }, ...extra });

/** Bottom-up: a group's child groups are named and exist before it. */
const GROUPS = [
  {
    name: 'Cheese type',
    de: 'Käsesorte',
    minSelections: 1,
    maxSelections: 1,
    isRequired: true,
    sortOrder: 1,
    options: [
      option('Mozzarella', 'Mozzarella', 0, { isDefault: true }),
      option('Gorgonzola', 'Gorgonzola', 0.5),
      option('Vegan cheese', 'Veganer Käse', 0.8),
    ],
  },
  {
    name: 'Extra cheese',
    de: 'Extra Käse',
    minSelections: 0,
    maxSelections: 1,
    isRequired: false,
    sortOrder: 1,
    options: [
      option('Double cheese', 'Doppelt Käse', 1.5, { children: ['Cheese type'] }),
      option('Triple cheese', 'Dreifach Käse', 2.5, { children: ['Cheese type'] }),
    ],
  },
  {
    name: 'Crust',
    de: 'Boden',
    minSelections: 1,
    maxSelections: 1,
    isRequired: true,
    sortOrder: 1,
    options: [
      option('Classic', 'Klassisch', 0, { isDefault: true }),
      option('Thin', 'Dünn', 0),
      option('Gluten-free', 'Glutenfrei', 2),
    ],
  },
  {
    name: 'Toppings',
    de: 'Beläge',
    minSelections: 0,
    maxSelections: 5,
    isRequired: false,
    sortOrder: 2,
    options: [
      option('Cheese', 'Käse', 1, { children: ['Extra cheese'] }),
      option('Mushrooms', 'Champignons', 1),
      option('Salami', 'Salami', 1.5),
      option('Olives', 'Oliven', 1),
      option('Rocket', 'Rucola', 1.2),
      option('Jalapeños', 'Jalapeños', 0.8),
    ],
  },
  {
    name: 'Dressing',
    de: 'Dressing',
    minSelections: 1,
    maxSelections: 1,
    isRequired: true,
    sortOrder: 1,
    options: [
      option('Balsamic', 'Balsamico', 0, { isDefault: true }),
      option('Yoghurt', 'Joghurt', 0),
      option('No dressing', 'Ohne Dressing', 0),
    ],
  },
  {
    name: 'Ice',
    de: 'Eis',
    minSelections: 0,
    maxSelections: 1,
    isRequired: false,
    sortOrder: 1,
    options: [option('With ice', 'Mit Eis', 0, { isDefault: true })],
  },
];

const variant = (name, de, price, extra = {}) => ({ name, price, isDefault: false, translations: { de }, ...extra });
const pizzaSizes = (small, compareAt) => [
  variant('Small (26 cm)', 'Klein (26 cm)', small, { isDefault: true, groups: ['Crust', 'Toppings'] }),
  variant('Medium (30 cm)', 'Mittel (30 cm)', small + 2.5, { groups: ['Crust', 'Toppings'] }),
  variant('Large (34 cm)', 'Groß (34 cm)', small + 5, {
    compareAtPrice: compareAt ?? null,
    groups: ['Crust', 'Toppings'],
  }),
];

const PRODUCTS = [
  {
    category: 'Pizza',
    tax: 'Food 7% incl.',
    sku: 'PZ-MARG',
    name: 'Pizza Margherita',
    de: 'Pizza Margherita',
    imageUrl: 'https://images.example.com/demo/margherita.jpg',
    variants: pizzaSizes(8.5, 14.9),
  },
  {
    category: 'Pizza',
    tax: 'Food 7% incl.',
    sku: 'PZ-SAL',
    name: 'Pizza Salami',
    de: 'Pizza Salami',
    variants: pizzaSizes(9.5),
  },
  {
    category: 'Pizza',
    tax: 'Food 7% incl.',
    sku: 'PZ-FUN',
    name: 'Pizza Funghi',
    de: 'Pizza mit Pilzen',
    variants: pizzaSizes(9),
  },
  {
    category: 'Pasta',
    tax: 'Food 7% incl.',
    sku: 'PA-CAR',
    name: 'Spaghetti Carbonara',
    de: 'Spaghetti Carbonara',
    variants: [variant('Regular', 'Normal', 11.5, { isDefault: true }), variant('Large', 'Groß', 14)],
  },
  {
    category: 'Pasta',
    tax: 'Food 7% incl.',
    sku: 'PA-ARR',
    name: 'Penne Arrabbiata',
    de: 'Penne Arrabbiata',
    variants: [variant('Regular', 'Normal', 10.5, { isDefault: true })],
  },
  {
    category: 'Salads',
    tax: 'Food 7% incl.',
    sku: 'SA-CAE',
    name: 'Caesar Salad',
    de: 'Caesar Salat',
    variants: [variant('Regular', 'Normal', 9.5, { isDefault: true, groups: ['Dressing'] })],
  },
  {
    category: 'Drinks',
    tax: 'Drinks 19% excl.',
    sku: 'DR-COLA',
    name: 'Cola',
    de: 'Cola',
    variants: [
      variant('0.33 l', '0,33 l', 2.9, { isDefault: true, groups: ['Ice'] }),
      variant('0.5 l', '0,5 l', 3.9, { groups: ['Ice'] }),
    ],
  },
  {
    category: 'Drinks',
    tax: 'Drinks 19% excl.',
    sku: 'DR-WATER',
    name: 'Sparkling water',
    de: 'Mineralwasser',
    variants: [variant('0.5 l', '0,5 l', 2.5, { isDefault: true })],
  },
  {
    category: 'Desserts',
    tax: 'Food 7% incl.',
    sku: 'DE-TIRA',
    name: 'Tiramisu',
    de: 'Tiramisu',
    variants: [variant('Portion', 'Portion', 5.9, { isDefault: true })],
  },
  {
    category: 'Desserts',
    tax: 'Food 7% incl.',
    sku: 'DE-PANNA',
    name: 'Panna cotta',
    de: 'Panna cotta',
    variants: [variant('Portion', 'Portion', 5.5, { isDefault: true })],
  },
];

/** At Mitte: sold out and unavailable items, at each level. */
const MITTE_AVAILABILITY = {
  soldOutProduct: 'Panna cotta',
  unavailableVariant: ['Spaghetti Carbonara', 'Large'],
  soldOutOption: ['Toppings', 'Rocket'],
};

/**
 * Creates or replaces each resource by name; `specs` are `{ name, body(found) }`, where `found` is
 * the stored resource of that name, if any. Returns name → stored resource.
 */
async function upsertAll(tenant, kind, specs) {
  const existing = new Map((await tenant.call('GET', `${CATALOG}/${kind}`)).map((r) => [r.name, r]));
  const out = new Map();
  for (const { name, body } of specs) {
    const found = existing.get(name);
    const saved = found
      ? await tenant.call('PUT', `${CATALOG}/${kind}/${found.id}`, body(found), [200])
      : await tenant.call('POST', `${CATALOG}/${kind}`, body(undefined), [201]);
    out.set(saved.name, saved);
  }
  return out;
}

const fixed = (list) => list.map((item) => ({ name: item.name, body: () => item }));

/** Sub-items keep the id of the stored one with the same name. */
function keepIds(items, stored) {
  return items.map((item) => {
    const same = stored?.find((s) => s.name === item.name);
    return same ? { ...item, id: same.id } : item;
  });
}

export const catalogStep = {
  name: 'catalog',
  async run(ctx) {
    const tenant = ctx.tenant;
    const branches = await upsertAll(tenant, 'branches', fixed(BRANCHES));
    const taxes = await upsertAll(tenant, 'tax-categories', fixed(TAXES));
    const categories = await upsertAll(tenant, 'categories', fixed(CATEGORIES));

    // One at a time, children first: a group's body needs its child groups' ids.
    const groups = new Map();
    for (const group of GROUPS) {
      const saved = await upsertAll(tenant, 'modifier-groups', [
        {
          name: group.name,
          body: (found) => ({
            name: group.name,
            minSelections: group.minSelections,
            maxSelections: group.maxSelections,
            isRequired: group.isRequired,
            sortOrder: group.sortOrder,
            translations: { de: group.de },
            options: keepIds(
              group.options.map(({ children = [], ...o }) => ({
                ...o,
                childGroupIds: children.map((c) => groups.get(c).id),
              })),
              found?.options,
            ),
          }),
        },
      ]);
      groups.set(group.name, saved.get(group.name));
    }

    const products = await upsertAll(
      tenant,
      'products',
      PRODUCTS.map((p, i) => ({
        name: p.name,
        body: (found) => ({
          categoryId: categories.get(p.category).id,
          sortOrder: i,
          sku: p.sku,
          name: p.name,
          imageUrl: p.imageUrl ?? null,
          taxCategoryId: taxes.get(p.tax).id,
          translations: { de: p.de },
          variants: keepIds(
            p.variants.map(({ groups: names = [], ...v }) => ({
              ...v,
              modifierGroupIds: names.map((n) => groups.get(n).id),
            })),
            found?.variants,
          ),
        }),
      })),
    );

    const mitte = branches.get('Demo Bistro Mitte');
    const [productName, variantName] = MITTE_AVAILABILITY.unavailableVariant;
    const [groupName, optionName] = MITTE_AVAILABILITY.soldOutOption;
    await tenant.call(
      'PATCH',
      `${CATALOG}/branches/${mitte.id}/availability`,
      {
        products: { [products.get(MITTE_AVAILABILITY.soldOutProduct).id]: 1 },
        variants: { [products.get(productName).variants.find((v) => v.name === variantName).id]: 2 },
        modifierOptions: { [groups.get(groupName).options.find((o) => o.name === optionName).id]: 1 },
      },
      [200],
    );

    const active = [...branches.values()].filter((b) => b.isActive);
    ctx.report(
      `catalog: ${active.length} active branches (+1 inactive), ${categories.size} categories, ${products.size} products, ${groups.size} modifier groups, 2 languages`,
    );
    return { branches: active.map((b) => ({ id: b.id, name: b.name })) };
  },
};
