import { randomUUID } from 'node:crypto';
import { validationError, type FieldErrors } from '@marketplace/errors';
import { canonicalLanguage } from './language';
import { currencyDecimals, toMinorUnits, validTaxRate } from '@marketplace/money';
import type {
  BranchFields,
  CategoryFields,
  ModifierGroupFields,
  ModifierOption,
  ProductFields,
  TaxCategoryFields,
  Translations,
  Variant,
} from './model';
import type { BranchInput, CategoryInput, ModifierGroupInput, ProductInput, TaxCategoryInput } from './inputs';

/**
 * The catalog's rules on what a tenant may store, as pure functions: each turns a request body into
 * the fields to store, or throws one 400 naming every offending field. References to other
 * resources (category, tax category, groups) are checked by the use cases, which see the database.
 */
// One code for every invalid request across the services; `errors` says what is wrong.
export const VALIDATION_FAILED = 'request.invalid';

export class Problems {
  readonly errors: FieldErrors = {};
  add(path: string, message: string): void {
    (this.errors[path] ??= []).push(message);
  }
  get any(): boolean {
    return Object.keys(this.errors).length > 0;
  }
  throwIfAny(): void {
    if (this.any)
      throw validationError(VALIDATION_FAILED, 'The catalog change breaks a rule; see errors.', this.errors);
  }
}

/** What the rules need to know about the tenant. */
export interface TenantRules {
  currencyCode: string;
  /** Canonical default language: names are in it, so translations may not repeat it. */
  defaultLanguage: string;
}

export function translations(
  input: Record<string, string> | undefined,
  rules: TenantRules,
  path: string,
  problems: Problems,
): Translations {
  const out: Translations = {};
  for (const [tag, name] of Object.entries(input ?? {})) {
    const canonical = canonicalLanguage(tag);
    if (!canonical) problems.add(`${path}.${tag}`, 'is not a known language (a BCP 47 tag such as de or de-AT)');
    else if (canonical === rules.defaultLanguage)
      problems.add(`${path}.${tag}`, `is the default language; put this text in name`);
    else if (out[canonical] !== undefined) problems.add(`${path}.${tag}`, `repeats the language ${canonical}`);
    else out[canonical] = name;
  }
  return out;
}

function money(amount: number, rules: TenantRules, path: string, problems: Problems): number {
  const decimals = currencyDecimals(rules.currencyCode);
  const minor = toMinorUnits(amount, decimals);
  if (minor === undefined)
    problems.add(path, `must be an amount from 0 to 1000000 with at most ${decimals} decimals (${rules.currencyCode})`);
  return minor ?? 0;
}

export function taxCategoryFields(input: TaxCategoryInput, rules: TenantRules): TaxCategoryFields {
  const problems = new Problems();
  if (!validTaxRate(input.rate)) problems.add('rate', 'must be a percentage from 0 to 100 with at most 4 decimals');
  const fields = {
    name: input.name,
    rate: input.rate,
    isInclusive: input.isInclusive,
    translations: translations(input.translations, rules, 'translations', problems),
  };
  problems.throwIfAny();
  return fields;
}

export function branchFields(input: BranchInput, rules: TenantRules): BranchFields {
  const problems = new Problems();
  const a = input.address;
  const fields: BranchFields = {
    name: input.name,
    isActive: input.isActive ?? true,
    externalLocationId: input.externalLocationId ?? null,
    address: a
      ? {
          line1: a.line1,
          line2: a.line2 ?? null,
          city: a.city,
          postalCode: a.postalCode ?? null,
          countryCode: a.countryCode,
        }
      : null,
    coordinates: input.coordinates ?? null,
    translations: translations(input.translations, rules, 'translations', problems),
  };
  // An active branch takes orders: its address and coordinates are the pickup a driver is sent to
  // (the Partner API's Branch pickup info has numbers for them, always). Active is the default.
  if (fields.isActive) {
    if (!fields.address) problems.add('address', 'is required for an active branch (one that takes orders)');
    if (!fields.coordinates) problems.add('coordinates', 'is required for an active branch (one that takes orders)');
  }
  problems.throwIfAny();
  return fields;
}

export function categoryFields(input: CategoryInput, rules: TenantRules): CategoryFields {
  const problems = new Problems();
  const fields = {
    name: input.name,
    sortOrder: input.sortOrder ?? 0,
    translations: translations(input.translations, rules, 'translations', problems),
  };
  problems.throwIfAny();
  return fields;
}

/**
 * Ids of sub-items (variants, options): a kept one must be one the resource had; a new one gets a
 * fresh id. Duplicates are refused.
 */
function itemIds(items: { id?: string }[], existing: ReadonlySet<string>, path: string, problems: Problems): string[] {
  const seen = new Set<string>();
  return items.map((item, i) => {
    if (item.id === undefined) return randomUUID();
    const id = item.id.toLowerCase();
    if (!existing.has(id))
      problems.add(`${path}[${i}].id`, 'is not an id this resource has; leave it out for a new one');
    else if (seen.has(id)) problems.add(`${path}[${i}].id`, 'appears twice');
    seen.add(id);
    return id;
  });
}

function uniqueIds(ids: string[] | undefined, path: string, problems: Problems): string[] {
  const out = (ids ?? []).map((id) => id.toLowerCase());
  if (new Set(out).size !== out.length) problems.add(path, 'must not list a group twice');
  return out;
}

export function productFields(
  input: ProductInput,
  rules: TenantRules,
  existingVariantIds: ReadonlySet<string> = new Set(),
): ProductFields {
  const problems = new Problems();
  const ids = itemIds(input.variants, existingVariantIds, 'variants', problems);
  const defaults = input.variants.filter((v) => v.isDefault).length;
  if (defaults !== 1) problems.add('variants', `must have exactly one default variant (isDefault), not ${defaults}`);
  const variants: Variant[] = input.variants.map((v, i) => ({
    id: ids[i]!,
    sku: v.sku ?? null,
    name: v.name,
    priceMinor: money(v.price, rules, `variants[${i}].price`, problems),
    compareAtPriceMinor:
      v.compareAtPrice == null ? null : money(v.compareAtPrice, rules, `variants[${i}].compareAtPrice`, problems),
    isDefault: v.isDefault,
    modifierGroupIds: uniqueIds(v.modifierGroupIds, `variants[${i}].modifierGroupIds`, problems),
    translations: translations(v.translations, rules, `variants[${i}].translations`, problems),
  }));
  const fields: ProductFields = {
    categoryId: input.categoryId.toLowerCase(),
    sortOrder: input.sortOrder ?? 0,
    sku: input.sku ?? null,
    name: input.name,
    imageUrl: input.imageUrl ?? null,
    taxCategoryId: input.taxCategoryId ? input.taxCategoryId.toLowerCase() : null,
    translations: translations(input.translations, rules, 'translations', problems),
    variants,
  };
  if (fields.imageUrl !== null && !isHttpsUrl(fields.imageUrl))
    problems.add('imageUrl', 'must be an absolute https URL');
  problems.throwIfAny();
  return fields;
}

export function modifierGroupFields(
  input: ModifierGroupInput,
  rules: TenantRules,
  existingOptionIds: ReadonlySet<string> = new Set(),
): ModifierGroupFields {
  const problems = new Problems();
  const { minSelections: min, maxSelections: max } = input;
  const count = input.options.length;
  if (min > max) problems.add('minSelections', 'must not be greater than maxSelections');
  if (max > count) problems.add('maxSelections', `must not be greater than the number of options (${count})`);
  if (input.isRequired !== min >= 1)
    problems.add('isRequired', 'must be true exactly when minSelections is at least 1');
  const defaults = input.options.filter((o) => o.isDefault).length;
  if (defaults > max) problems.add('options', `has ${defaults} default options, more than maxSelections (${max})`);
  const ids = itemIds(input.options, existingOptionIds, 'options', problems);
  const options: ModifierOption[] = input.options.map((o, i) => ({
    id: ids[i]!,
    name: o.name,
    priceMinor: money(o.price, rules, `options[${i}].price`, problems),
    isDefault: o.isDefault ?? false,
    childGroupIds: uniqueIds(o.childGroupIds, `options[${i}].childGroupIds`, problems),
    translations: translations(o.translations, rules, `options[${i}].translations`, problems),
  }));
  const fields = {
    name: input.name,
    minSelections: min,
    maxSelections: max,
    isRequired: input.isRequired,
    sortOrder: input.sortOrder ?? 0,
    translations: translations(input.translations, rules, 'translations', problems),
    options,
  };
  problems.throwIfAny();
  return fields;
}

function isHttpsUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.hostname.length > 0;
  } catch {
    return false;
  }
}
