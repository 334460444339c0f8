#!/usr/bin/env node
// The pricing engine alone, in one process, no I/O: a complex order (10 lines, each with a
// required crust, two toppings of which one opens a required nested group, which opens a third
// level; a 10 % promotion; lines alternating 7 % inclusive and 19 % exclusive tax, plus a 8.875 %
// one) checked against the catalog slice (resolveLines) and priced (priceOrder), over and over.
// Prints orders priced per second and the time per order.
//
//   npm run build && npm run bench:pricing [-- --seconds 5]
import os from 'node:os';
import { require } from './lib/processes.mjs';

const { resolveLines } = require('./services/ordering-pricing/dist/domain/order-lines.js');
const { priceOrder } = require('./services/ordering-pricing/dist/domain/pricing.js');

const secondsArg = process.argv.indexOf('--seconds');
const SECONDS = secondsArg > 0 ? Number(process.argv[secondsArg + 1]) : 5;
if (!(SECONDS > 0)) {
  console.error('usage: node scripts/bench/pricing.mjs [--seconds n]');
  process.exit(2);
}

let n = 0;
const id = () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
const group = (name, min, max, options) => ({
  id: id(),
  name,
  minSelections: min,
  maxSelections: max,
  isRequired: min > 0,
  options,
});
const option = (name, priceMinor, childGroupIds = []) => ({ id: id(), name, priceMinor, childGroupIds });

// Three levels: Toppings → Cheese opens "Cheese type" → Mozzarella opens "Extra".
const extra = group('Extra', 0, 1, [option('Double', 90)]);
const cheeseType = group('Cheese type', 1, 1, [option('Mozzarella', 0, [extra.id]), option('Cheddar', 50)]);
const toppings = group('Toppings', 0, 5, [
  option('Cheese', 100, [cheeseType.id]),
  option('Olives', 80),
  option('Ham', 120),
  option('Onions', 60),
]);
const crust = group('Crust', 1, 1, [option('Thin', 0), option('Thick', 150)]);
const taxes = [
  { id: id(), name: 'Food 7%', rate: 7, isInclusive: true },
  { id: id(), name: 'Drinks 19%', rate: 19, isInclusive: false },
  { id: id(), name: 'City 8.875%', rate: 8.875, isInclusive: false },
];
const products = Array.from({ length: 10 }, (_, i) => ({
  id: id(),
  name: `Product ${i}`,
  taxCategoryId: taxes[i % 3].id,
  variants: [
    { id: id(), name: 'Large', priceMinor: 1200 + i * 37, modifierGroupIds: [crust.id, toppings.id] },
    { id: id(), name: 'Small', priceMinor: 900 + i * 29, modifierGroupIds: [crust.id] },
  ],
}));
const menu = {
  branch: { id: id(), name: 'Bench', isActive: true, externalLocationId: null, address: null, coordinates: null },
  availability: { products: {}, variants: {}, modifierOptions: {} },
  products: new Map(products.map((p) => [p.id, p])),
  groups: new Map([extra, cheeseType, toppings, crust].map((g) => [g.id, g])),
  taxes: new Map(taxes.map((t) => [t.id, t])),
};
const lines = products.map((p, i) => {
  const cheese = { selectionId: id(), modifierGroupId: toppings.id, modifierOptionId: toppings.options[0].id };
  const mozzarella = {
    selectionId: id(),
    modifierGroupId: cheeseType.id,
    modifierOptionId: cheeseType.options[0].id,
    parentSelectionId: cheese.selectionId,
  };
  return {
    productId: p.id,
    variantId: p.variants[0].id,
    quantity: 1 + (i % 3),
    modifierSelections: [
      { selectionId: id(), modifierGroupId: crust.id, modifierOptionId: crust.options[i % 2].id },
      cheese,
      mozzarella,
      {
        selectionId: id(),
        modifierGroupId: extra.id,
        modifierOptionId: extra.options[0].id,
        parentSelectionId: mozzarella.selectionId,
      },
      { selectionId: id(), modifierGroupId: toppings.id, modifierOptionId: toppings.options[1 + (i % 3)].id },
    ],
  };
});

function priceOnce() {
  const resolved = resolveLines(lines, menu);
  if (!('lines' in resolved)) throw new Error(`the bench order is invalid: ${JSON.stringify(resolved.errors)}`);
  return priceOrder({
    lines: resolved.lines.map((l) => ({
      quantity: l.quantity,
      variantPriceMinor: l.variantPriceMinor,
      modifierPricesMinor: l.modifiers.map((m) => m.priceMinor),
      tax: l.tax,
    })),
    promotion: { kind: 'percentage', percent: 10 },
    deliveryFeeMinor: 250,
    serviceFee: { fixedMinor: 49, percent: 2 },
  });
}

const sample = priceOnce();
for (let i = 0; i < 2000; i++) priceOnce(); // warm-up
const started = process.hrtime.bigint();
const deadline = started + BigInt(SECONDS * 1e9);
let count = 0;
while (process.hrtime.bigint() < deadline) {
  for (let i = 0; i < 200; i++) priceOnce();
  count += 200;
}
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
const cpus = os.cpus();
console.log(`node ${process.version}, ${cpus[0]?.model.trim() ?? 'unknown CPU'}, one thread`);
console.log(
  `order: 10 lines, 50 modifier selections 3 levels deep, 10 % promotion, 3 tax rates (inclusive and exclusive); grand total ${sample.grandTotalMinor} minor units`,
);
console.log(
  `pricing engine (resolveLines + priceOrder): ${Math.round(count / seconds).toLocaleString('en')} orders/s, ${((seconds / count) * 1e6).toFixed(1)} µs per order (${count.toLocaleString('en')} orders in ${seconds.toFixed(1)} s)`,
);
