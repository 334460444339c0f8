import type { CopiedModifierGroup, CopiedProduct, MenuSlice } from './catalog-copy';
import { resolveLines, type LineRequest, type SelectionRequest } from './order-lines';

// A pizza with a required Crust (exactly one) and up to two Toppings; the Cheese topping opens a
// required "Cheese type" group (exactly one), whose "Mozzarella" option opens an optional group.
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const PIZZA = id(1),
  LARGE = id(2),
  SMALL = id(3);
const CRUST = id(10),
  THIN = id(11),
  THICK = id(12);
const TOPPINGS = id(20),
  CHEESE = id(21),
  OLIVES = id(22),
  HAM = id(23);
const CHEESE_TYPE = id(30),
  MOZZARELLA = id(31),
  CHEDDAR = id(32);
const EXTRA = id(40),
  DOUBLE = id(41);
const SALAD = id(50),
  SALAD_V = id(51);

const group = (
  gid: string,
  name: string,
  min: number,
  max: number,
  required: boolean,
  options: Array<[string, string, number, string[]?]>,
): CopiedModifierGroup => ({
  id: gid,
  name,
  minSelections: min,
  maxSelections: max,
  isRequired: required,
  options: options.map(([oid, oname, price, children]) => ({
    id: oid,
    name: oname,
    priceMinor: price,
    childGroupIds: children ?? [],
  })),
});
const pizza: CopiedProduct = {
  id: PIZZA,
  name: 'Pizza',
  taxCategoryId: id(90),
  variants: [
    { id: LARGE, name: 'Large', priceMinor: 1200, modifierGroupIds: [CRUST, TOPPINGS] },
    { id: SMALL, name: 'Small', priceMinor: 900, modifierGroupIds: [CRUST] },
  ],
};
const salad: CopiedProduct = {
  id: SALAD,
  name: 'Salad',
  taxCategoryId: null,
  variants: [{ id: SALAD_V, name: 'Regular', priceMinor: 700, modifierGroupIds: [] }],
};
const menu = (availability: Partial<MenuSlice['availability']> = {}): MenuSlice => ({
  branch: undefined,
  availability: { products: {}, variants: {}, modifierOptions: {}, ...availability },
  products: new Map([
    [PIZZA, pizza],
    [SALAD, salad],
  ]),
  groups: new Map([
    [
      CRUST,
      group(CRUST, 'Crust', 1, 1, true, [
        [THIN, 'Thin', 0],
        [THICK, 'Thick', 150],
      ]),
    ],
    [
      TOPPINGS,
      group(TOPPINGS, 'Toppings', 0, 2, false, [
        [CHEESE, 'Cheese', 100, [CHEESE_TYPE]],
        [OLIVES, 'Olives', 80],
        [HAM, 'Ham', 120],
      ]),
    ],
    [
      CHEESE_TYPE,
      group(CHEESE_TYPE, 'Cheese type', 1, 1, true, [
        [MOZZARELLA, 'Mozzarella', 0, [EXTRA]],
        [CHEDDAR, 'Cheddar', 50],
      ]),
    ],
    [EXTRA, group(EXTRA, 'Extra', 0, 1, false, [[DOUBLE, 'Double', 90]])],
  ]),
  taxes: new Map([[id(90), { id: id(90), name: 'Food', rate: 7, isInclusive: true }]]),
});

let n = 1000;
const sel = (groupId: string, optionId: string, parent?: SelectionRequest): SelectionRequest => ({
  selectionId: id(++n),
  modifierGroupId: groupId,
  modifierOptionId: optionId,
  parentSelectionId: parent?.selectionId ?? null,
});
const line = (selections: SelectionRequest[], overrides: Partial<LineRequest> = {}): LineRequest => ({
  productId: PIZZA,
  variantId: LARGE,
  quantity: 1,
  modifierSelections: selections,
  ...overrides,
});
const errorsOf = (lines: LineRequest[], m = menu()) => {
  const result = resolveLines(lines, m);
  return 'errors' in result ? result.errors : {};
};

describe('resolveLines', () => {
  it('resolves a three-level selection in any order, with names, prices and tax', () => {
    const crust = sel(CRUST, THICK);
    const cheese = sel(TOPPINGS, CHEESE);
    const type = sel(CHEESE_TYPE, MOZZARELLA, cheese);
    const extra = sel(EXTRA, DOUBLE, type);
    const result = resolveLines(
      [line([extra, type, crust, cheese], { quantity: 2, customerNote: 'well done' })],
      menu(),
    );
    if (!('lines' in result)) throw new Error(JSON.stringify(result.errors));
    const [resolved] = result.lines;
    expect(resolved!.variantPriceMinor).toBe(1200);
    expect(resolved!.tax).toEqual({ taxCategoryId: id(90), name: 'Food', ratePercent: 7, inclusive: true });
    expect(resolved!.modifiers.map((m) => [m.modifierOptionName, m.priceMinor, m.parentSelectionId])).toEqual([
      ['Thick', 150, null],
      ['Cheese', 100, null],
      ['Mozzarella', 0, cheese.selectionId],
      ['Double', 90, type.selectionId],
    ]);
    expect(resolved!.customerNote).toBe('well done');
  });

  it('reports unknown and unavailable products and variants at their paths', () => {
    const errors = errorsOf(
      [
        line([], { productId: id(999) }),
        line([sel(CRUST, THIN)], { variantId: SALAD_V }),
        line([sel(CRUST, THIN)], { variantId: SMALL }),
      ],
      menu({ variants: { [SMALL]: 1 } }),
    );
    expect(errors).toEqual({
      'lines[0].productId': ['is not a product of this catalog'],
      'lines[1].variantId': ['is not a variant of this product'],
      'lines[2].variantId': ['is not available at this branch'],
    });
  });

  it('refuses a product marked unavailable at the branch', () => {
    expect(errorsOf([line([sel(CRUST, THIN)])], menu({ products: { [PIZZA]: 2 } }))).toEqual({
      'lines[0].productId': ['is not available at this branch'],
    });
  });

  it('checks each selection: group of the variant, option of the group, availability', () => {
    const errors = errorsOf(
      [line([sel(CRUST, THIN), sel(CHEESE_TYPE, CHEDDAR), sel(TOPPINGS, THIN), sel(TOPPINGS, OLIVES)])],
      menu({ modifierOptions: { [OLIVES]: 1 } }),
    );
    expect(errors).toEqual({
      'lines[0].modifierSelections[1].modifierGroupId': ['is not a modifier group of this variant'],
      'lines[0].modifierSelections[2].modifierOptionId': ['is not an option of this modifier group'],
      'lines[0].modifierSelections[3].modifierOptionId': ['is not available at this branch'],
    });
  });

  it('refuses a nested group that the parent option does not open', () => {
    const olives = sel(TOPPINGS, OLIVES);
    const errors = errorsOf([line([sel(CRUST, THIN), olives, sel(CHEESE_TYPE, CHEDDAR, olives)])]);
    expect(errors['lines[0].modifierSelections[2].modifierGroupId']).toEqual([
      'is not a modifier group of the option chosen by the parent selection',
    ]);
  });

  it('refuses unknown and circular parents', () => {
    const a: SelectionRequest = {
      selectionId: id(7001),
      modifierGroupId: CHEESE_TYPE,
      modifierOptionId: CHEDDAR,
      parentSelectionId: id(7002),
    };
    const b: SelectionRequest = {
      selectionId: id(7002),
      modifierGroupId: CHEESE_TYPE,
      modifierOptionId: MOZZARELLA,
      parentSelectionId: id(7001),
    };
    const orphan: SelectionRequest = { ...sel(EXTRA, DOUBLE), parentSelectionId: id(8888) };
    const errors = errorsOf([line([sel(CRUST, THIN), a, b, orphan])]);
    expect(errors['lines[0].modifierSelections[1].parentSelectionId']).toEqual([
      'does not lead to a valid selection (unresolved or circular parent)',
    ]);
    expect(errors['lines[0].modifierSelections[2].parentSelectionId']).toEqual([
      'does not lead to a valid selection (unresolved or circular parent)',
    ]);
    expect(errors['lines[0].modifierSelections[3].parentSelectionId']).toEqual(['is not a selection of this line']);
  });

  it('enforces min, max and required at every level', () => {
    const cheese = sel(TOPPINGS, CHEESE);
    expect(errorsOf([line([])])).toEqual({
      'lines[0].modifierSelections': ["the modifier group 'Crust' of this variant needs at least 1 selection"],
    });
    expect(errorsOf([line([sel(CRUST, THIN), sel(CRUST, THICK)])])).toEqual({
      'lines[0].modifierSelections': ["the modifier group 'Crust' of this variant allows at most 1 selection"],
    });
    expect(
      errorsOf([line([sel(CRUST, THIN), sel(TOPPINGS, OLIVES), sel(TOPPINGS, HAM), sel(TOPPINGS, CHEESE)])])[
        'lines[0].modifierSelections'
      ],
    ).toEqual([
      "the modifier group 'Toppings' of this variant allows at most 2 selections",
      "the modifier group 'Cheese type' of the option 'Cheese' needs at least 1 selection",
    ]);
    // Cheese chosen without its required nested choice.
    expect(errorsOf([line([sel(CRUST, THIN), cheese])])).toEqual({
      'lines[0].modifierSelections': [
        "the modifier group 'Cheese type' of the option 'Cheese' needs at least 1 selection",
      ],
    });
  });

  it('refuses the same option twice in one group, and a selection id used twice in the order', () => {
    const thin = sel(CRUST, THIN);
    const errors = errorsOf([
      line([thin, sel(TOPPINGS, HAM), sel(TOPPINGS, HAM)]),
      line([{ ...sel(CRUST, THIN), selectionId: thin.selectionId }]),
    ]);
    expect(errors['lines[0].modifierSelections[2].modifierOptionId']).toEqual([
      'is chosen more than once in this modifier group',
    ]);
    expect(errors['lines[1].modifierSelections[0].selectionId']).toEqual(['is used more than once in this order']);
  });

  it('prices nothing on a product without modifiers and without tax', () => {
    const result = resolveLines([line([], { productId: SALAD, variantId: SALAD_V, quantity: 3 })], menu());
    expect('lines' in result && result.lines[0]).toMatchObject({
      productName: 'Salad',
      variantName: 'Regular',
      quantity: 3,
      tax: null,
      modifiers: [],
    });
  });
});
