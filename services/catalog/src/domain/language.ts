/**
 * Languages of the catalog: BCP 47 tags, canonicalised, whose language is a known ISO 639 one.
 * How a partner's `language` parameter is resolved is documented in the service README.
 */

const languageNames = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });

/** The canonical form of a tag (`DE-at` → `de-AT`), or undefined when it is no tag or an unknown language. */
export function canonicalLanguage(tag: unknown): string | undefined {
  if (typeof tag !== 'string' || tag.length === 0 || tag.length > 35) return undefined;
  let canonical: string;
  try {
    [canonical] = Intl.getCanonicalLocales(tag) as [string];
  } catch {
    return undefined; // not a BCP 47 tag
  }
  const base = baseLanguage(canonical);
  if (!base || base === 'und' || languageNames.of(base) === undefined) return undefined;
  return canonical;
}

/** The language subtag of a canonical tag: `de-AT` → `de`. */
export function baseLanguage(canonicalTag: string): string {
  return new Intl.Locale(canonicalTag).language ?? ''; // undefined for `und`
}

/**
 * The language to answer in: the requested tag itself if the catalog has it; else its base language
 * (`de-AT` → `de`); else another regional form of that base language (`de` → `de-AT`, the first in
 * alphabetical order); else the tenant's default language. Anything that is not one valid tag (a
 * repeated parameter, an empty or malformed one) gets the default: a read never fails over language.
 */
export function resolveLanguage(requested: unknown, available: ReadonlySet<string>, defaultLanguage: string): string {
  const canonical = canonicalLanguage(requested);
  if (!canonical) return defaultLanguage;
  if (available.has(canonical)) return canonical;
  const base = baseLanguage(canonical);
  if (available.has(base)) return base;
  const regional = [...available].filter((tag) => baseLanguage(tag) === base).sort();
  return regional[0] ?? defaultLanguage;
}

/** A name in the language, else the name itself (which is in the tenant's default language). */
export function nameIn(entity: { name: string; translations: Record<string, string> }, language: string): string {
  return entity.translations[language] ?? entity.name;
}
