import { randomUUID } from 'node:crypto';
import type { Db } from 'mongodb';
import type { ApiClient } from './gateway';
import { waitFor } from './wait';

/*
 * A small restaurant menu created through the tenant API, and an order on it: what the ordering
 * and webhook suites price and send. Only over HTTP (and a look into ordering-pricing's catalog
 * copy, to know when it can be ordered from).
 */

/** A tenant API call, paths under /api/tenant/v1. */
export type TenantCall = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;

/** The ids of the menu `seedMenu` creates. */
export interface DemoMenu {
  branchId: string;
  otherBranchId: string;
  inactiveBranchId: string;
  food7: string;
  drinks19: string;
  pizza: { id: string; large: string; small: string };
  cola: { id: string; variant: string };
  crust: { id: string; thin: string; thick: string };
  toppings: { id: string; cheese: string; olives: string; ham: string };
  cheeseType: { id: string; mozzarella: string; cheddar: string };
}

async function createdBody(manage: TenantCall, path: string, body: unknown) {
  const res = await manage('POST', path, body);
  if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A POST under /catalog that must answer 201: the created resource. */
type Create = (path: string, body: unknown) => Promise<any>;

/** Stage 1: the two tax categories and the three branches. */
async function seedTaxesAndBranches(c: Create) {
  const food7 = await c('/tax-categories', { name: 'Food 7%', rate: 7, isInclusive: true });
  const drinks19 = await c('/tax-categories', { name: 'Drinks 19%', rate: 19, isInclusive: false });
  const mitte = await c('/branches', {
    name: 'Mitte',
    isActive: true,
    externalLocationId: 'loc-mitte',
    address: { line1: 'Torstrasse 1', line2: null, city: 'Berlin', postalCode: '10119', countryCode: 'DE' },
    coordinates: { latitude: 52.53, longitude: 13.4 },
  });
  const hafen = await c('/branches', {
    name: 'Hafen',
    isActive: true,
    address: { line1: 'Am Hafen 7', line2: null, city: 'Hamburg', postalCode: '20457', countryCode: 'DE' },
    coordinates: { latitude: 53.5413, longitude: 9.9846 },
  });
  const closed = await c('/branches', { name: 'Closed', isActive: false });
  return { food7, drinks19, mitte, hafen, closed };
}

/** Stage 2: the modifier groups, "Cheese type" first, as the Toppings' Cheese opens it. */
async function seedModifierGroups(c: Create) {
  const cheeseType = await c('/modifier-groups', {
    name: 'Cheese type',
    minSelections: 1,
    maxSelections: 1,
    isRequired: true,
    options: [
      { name: 'Mozzarella', price: 0 },
      { name: 'Cheddar', price: 0.5 },
    ],
  });
  const toppings = await c('/modifier-groups', {
    name: 'Toppings',
    minSelections: 0,
    maxSelections: 2,
    isRequired: false,
    options: [
      { name: 'Cheese', price: 1, childGroupIds: [cheeseType.id] },
      { name: 'Olives', price: 0.8 },
      { name: 'Ham', price: 1.2 },
    ],
  });
  const crust = await c('/modifier-groups', {
    name: 'Crust',
    minSelections: 1,
    maxSelections: 1,
    isRequired: true,
    options: [
      { name: 'Thin', price: 0 },
      { name: 'Thick', price: 1.5 },
    ],
  });
  return { cheeseType, toppings, crust };
}

type Places = Awaited<ReturnType<typeof seedTaxesAndBranches>>;
type Groups = Awaited<ReturnType<typeof seedModifierGroups>>;

/** Stage 3: the pizza (its sizes with their modifier groups) and the cola, in the category. */
async function seedProducts(c: Create, categoryId: string, { food7, drinks19 }: Places, { crust, toppings }: Groups) {
  const pizza = await c('/products', {
    categoryId,
    name: 'Pizza',
    taxCategoryId: food7.id,
    variants: [
      { name: 'Large', price: 12, isDefault: true, modifierGroupIds: [crust.id, toppings.id] },
      { name: 'Small', price: 9, isDefault: false, modifierGroupIds: [crust.id] },
    ],
  });
  const cola = await c('/products', {
    categoryId,
    name: 'Cola',
    taxCategoryId: drinks19.id,
    variants: [{ name: '0.33 l', price: 2.5, isDefault: true }],
  });
  return { pizza, cola };
}

/** Stage 4: the ids of what was created, as the suites use them. */
function demoMenuOf(
  { food7, drinks19, mitte, hafen, closed }: Places,
  { cheeseType, toppings, crust }: Groups,
  { pizza, cola }: Awaited<ReturnType<typeof seedProducts>>,
): DemoMenu {
  const option = (group: any, name: string) => group.options.find((o: any) => o.name === name).id;
  return {
    branchId: mitte.id,
    otherBranchId: hafen.id,
    inactiveBranchId: closed.id,
    food7: food7.id,
    drinks19: drinks19.id,
    pizza: { id: pizza.id, large: pizza.variants[0].id, small: pizza.variants[1].id },
    cola: { id: cola.id, variant: cola.variants[0].id },
    crust: { id: crust.id, thin: option(crust, 'Thin'), thick: option(crust, 'Thick') },
    toppings: {
      id: toppings.id,
      cheese: option(toppings, 'Cheese'),
      olives: option(toppings, 'Olives'),
      ham: option(toppings, 'Ham'),
    },
    cheeseType: {
      id: cheeseType.id,
      mozzarella: option(cheeseType, 'Mozzarella'),
      cheddar: option(cheeseType, 'Cheddar'),
    },
  };
}

/**
 * Two tax categories (7 % inclusive, 19 % exclusive), three branches (Mitte and Hafen, active, so
 * with an address and coordinates, and an inactive one without), a pizza in two sizes with a required crust and up to two toppings
 * whose Cheese opens a required "Cheese type", and a cola. Prices in EUR.
 */
export async function seedMenu(manage: TenantCall): Promise<DemoMenu> {
  const c: Create = (path, body) => createdBody(manage, `/catalog${path}`, body);
  const places = await seedTaxesAndBranches(c);
  const category = await c('/categories', { name: 'Mains' });
  const groups = await seedModifierGroups(c);
  const products = await seedProducts(c, category.id, places, groups);
  return demoMenuOf(places, groups, products);
}

/** The demo menu for a tenant, once ordering-pricing's catalog copy (in its database `orderingDb`) has it. */
export async function restaurantMenu(tenant: ApiClient, tenantId: string, orderingDb: Db): Promise<DemoMenu> {
  const menu = await seedMenu((method, path, body) => tenant.call(method, `/api/tenant/v1${path}`, body));
  await waitForCatalogCopy(orderingDb, tenantId, 'product', menu.cola.id);
  return menu;
}

/**
 * Waits until ordering-pricing's catalog copy (collection `catalog_copy` of its database `db`)
 * holds the resource (and, if given, in the wanted state).
 */
export async function waitForCatalogCopy(
  db: Db,
  tenantId: string,
  entity: string,
  id: string,
  wanted: (state: any) => boolean = () => true,
): Promise<void> {
  await waitFor(`ordering's copy of ${entity} ${id}`, async () => {
    const doc = await db.collection('catalog_copy').findOne({ _id: `${tenantId}:${entity}:${id}` as never });
    return doc !== null && wanted(doc.state);
  });
}

let selections = 0;
/** A fresh modifier selection id (a uuid, unique within the run). */
export const selectionId = () => `00000000-0000-4000-a000-${String(++selections).padStart(12, '0')}`;

/** A large pizza (thin crust) and two colas, for pickup, paid cash. */
export function pickupOrder(menu: DemoMenu, overrides: Record<string, unknown> = {}) {
  return {
    branchId: menu.branchId,
    orderMode: 2,
    customerName: 'Ada Lovelace',
    customerPhone: '+49 30 1234567',
    paymentMethod: 1,
    externalOrderId: `ext-${randomUUID()}`,
    lines: [
      {
        productId: menu.pizza.id,
        variantId: menu.pizza.large,
        quantity: 1,
        modifierSelections: [
          { selectionId: selectionId(), modifierGroupId: menu.crust.id, modifierOptionId: menu.crust.thin },
        ],
      },
      { productId: menu.cola.id, variantId: menu.cola.variant, quantity: 2, modifierSelections: [] },
    ],
    ...overrides,
  };
}
