import { baseLanguage, canonicalLanguage, nameIn, resolveLanguage } from './language';

describe('canonicalLanguage', () => {
  it.each([
    ['de', 'de'],
    ['DE', 'de'],
    ['DE-at', 'de-AT'],
    ['de-at', 'de-AT'],
    ['zh-hant', 'zh-Hant'],
    ['zh-Hant', 'zh-Hant'],
    ['ZH-HANT-tw', 'zh-Hant-TW'],
    ['sr-latn-rs', 'sr-Latn-RS'],
    ['en-GB', 'en-GB'],
    ['gsw', 'gsw'], // a three-letter ISO 639 code
    ['es-419', 'es-419'],
  ])('canonicalises %s to %s', (tag, canonical) => expect(canonicalLanguage(tag)).toBe(canonical));

  it.each([
    ['xx', 'an unknown language'],
    ['xx-AT', 'an unknown language with a region'],
    ['qaa', 'a private-use language'],
    ['und', 'the undetermined language'],
    ['', 'empty'],
    ['de_AT', 'an underscore'],
    ['de-', 'a trailing hyphen'],
    ['not a tag', 'spaces'],
    ['x-private', 'a private-use tag'],
    [`de-${'a'.repeat(40)}`, 'longer than 35 characters'],
    [42, 'a number'],
    [['de'], 'an array'],
    [{ de: 1 }, 'an object'],
    [null, 'null'],
    [undefined, 'undefined'],
  ] as [unknown, string][])('refuses %p (%s)', (tag) => {
    expect(canonicalLanguage(tag)).toBeUndefined();
  });
});

describe('baseLanguage', () => {
  it.each([
    ['de-AT', 'de'],
    ['de', 'de'],
    ['zh-Hant-TW', 'zh'],
    ['es-419', 'es'],
  ])('%s → %s', (tag, base) => expect(baseLanguage(tag)).toBe(base));
});

describe('resolveLanguage', () => {
  const available = new Set(['en', 'de', 'fr-CA', 'fr-BE', 'pt-BR', 'es-MX', 'es-AR']);

  it.each([
    ['en', 'en', 'exact, the default'],
    ['de', 'de', 'exact'],
    ['DE', 'de', 'case-insensitive'],
    ['de-AT', 'de', 'the base language'],
    ['DE-at', 'de', 'the base language, case-insensitive'],
    ['de-CH', 'de', 'the base language'],
    ['fr-CA', 'fr-CA', 'exact regional'],
    ['fr-ca', 'fr-CA', 'exact regional, case-insensitive'],
    ['fr', 'fr-BE', 'no base: the first regional form alphabetically (fr-BE before fr-CA)'],
    ['fr-FR', 'fr-BE', 'neither exact nor base: a sibling region, alphabetically first'],
    ['es', 'es-AR', 'es-AR before es-MX'],
    ['pt', 'pt-BR', 'the only regional form'],
    ['pt-PT', 'pt-BR', 'a sibling region'],
    ['en-US', 'en', 'the base language of the default'],
    ['it', 'en', 'not in the catalog: the default'],
    ['xx', 'en', 'unknown: the default'],
    ['und', 'en', 'undetermined: the default'],
    ['', 'en', 'empty: the default'],
    ['de_AT', 'en', 'malformed: the default'],
    ['*', 'en', 'a wildcard is no tag'],
    ['de, fr', 'en', 'a list is no tag'],
    ['de;q=0.9', 'en', 'an Accept-Language value is no tag'],
    [['de'], 'en', 'an array is no tag, even of one'],
    [['de', 'fr'], 'en', 'a repeated parameter'],
    [[], 'en', 'an empty array'],
    [{ de: 'x' }, 'en', 'an object (a[b]=c query)'],
    [undefined, 'en', 'absent'],
    [null, 'en', 'null'],
    [42, 'en', 'a number'],
  ] as [unknown, string, string][])('%p → %s (%s)', (requested, resolved) =>
    expect(resolveLanguage(requested, available, 'en')).toBe(resolved),
  );

  it('falls back to the default language the tenant has, whatever it is', () => {
    expect(resolveLanguage('it', new Set(['de', 'en']), 'de')).toBe('de');
    expect(resolveLanguage(undefined, new Set(['de-AT']), 'de-AT')).toBe('de-AT');
    expect(resolveLanguage('de', new Set(['de-AT', 'en']), 'en')).toBe('de-AT'); // base missing: the regional form
  });

  it('prefers the base language over a sibling region', () => {
    expect(resolveLanguage('de-AT', new Set(['en', 'de-CH', 'de']), 'en')).toBe('de');
    expect(resolveLanguage('de-AT', new Set(['en', 'de-CH', 'de-DE']), 'en')).toBe('de-CH');
  });

  it('matches a tag with a script exactly', () => {
    expect(resolveLanguage('zh-hant', new Set(['en', 'zh-Hans', 'zh-Hant']), 'en')).toBe('zh-Hant');
  });
});

describe('nameIn', () => {
  const item = { name: 'Water', translations: { de: 'Wasser', 'de-AT': 'Wasser (AT)' } };
  it('gives the translation in the resolved language', () => {
    expect(nameIn(item, 'de')).toBe('Wasser');
    expect(nameIn(item, 'de-AT')).toBe('Wasser (AT)');
  });
  it('falls back to the name (the default language) when that language has no translation', () => {
    expect(nameIn(item, 'fr-BE')).toBe('Water');
    expect(nameIn(item, 'en')).toBe('Water');
    expect(nameIn({ name: 'Cola', translations: {} }, 'de')).toBe('Cola');
  });
});
