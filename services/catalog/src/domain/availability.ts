/** Availability at a branch, an integer on the wire (never a boolean). */
export const Availability = { Available: 0, SoldOut: 1, Unavailable: 2 } as const;
export type AvailabilityValue = (typeof Availability)[keyof typeof Availability];

/** Per-branch overrides; an id absent from a map is Available. */
export interface BranchAvailability {
  products: Record<string, 1 | 2>;
  variants: Record<string, 1 | 2>;
  modifierOptions: Record<string, 1 | 2>;
}

export const emptyAvailability = (): BranchAvailability => ({ products: {}, variants: {}, modifierOptions: {} });

/** A variant is the stricter of its own value and its product's (Unavailable > SoldOut > Available). */
export function variantAvailability(av: BranchAvailability, productId: string, variantId: string): AvailabilityValue {
  return Math.max(av.products[productId] ?? 0, av.variants[variantId] ?? 0) as AvailabilityValue;
}

/**
 * A product is its own value, raised to the least strict of its variants' values: a product whose
 * every variant is sold out is sold out, even if nobody marked the product itself.
 */
export function productAvailability(
  av: BranchAvailability,
  productId: string,
  variantIds: readonly string[],
): AvailabilityValue {
  const own = av.products[productId] ?? 0;
  const leastStrictVariant = Math.min(...variantIds.map((id) => variantAvailability(av, productId, id)));
  return Math.max(own, leastStrictVariant) as AvailabilityValue;
}

export function optionAvailability(av: BranchAvailability, optionId: string): AvailabilityValue {
  return av.modifierOptions[optionId] ?? 0;
}

/** An availability patch: per map, an id's new value, 0 clearing its override (it becomes Available). */
export type AvailabilityPatchEntries = Partial<Record<keyof BranchAvailability, Record<string, 0 | 1 | 2>>>;

/** The overrides after a patch; ids are kept in lower case, as the catalog's ids are. */
export function patchedAvailability(
  current: BranchAvailability | undefined,
  patch: AvailabilityPatchEntries,
): BranchAvailability {
  return {
    products: mergeEntries(current?.products, patch.products),
    variants: mergeEntries(current?.variants, patch.variants),
    modifierOptions: mergeEntries(current?.modifierOptions, patch.modifierOptions),
  };
}

function mergeEntries(
  current: Record<string, 1 | 2> | undefined,
  patch: Record<string, 0 | 1 | 2> | undefined,
): Record<string, 1 | 2> {
  const out = { ...(current ?? {}) };
  for (const [id, value] of Object.entries(patch ?? {})) {
    if (value === 0) delete out[id.toLowerCase()];
    else out[id.toLowerCase()] = value;
  }
  return out;
}
