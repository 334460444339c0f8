import { canonicalLanguage, nameIn, resolveLanguage } from './language';

it.each([
  ['de', 'de'],
  ['DE-at', 'de-AT'],
  ['zh-hant', 'zh-Hant'],
  ['en-GB', 'en-GB'],
])('canonicalises %s to %s', (tag, canonical) => expect(canonicalLanguage(tag)).toBe(canonical));

it.each([['xx'], [''], ['de_AT'], ['not a tag'], ['und'], [42], [['de']], [undefined]])('refuses %p', (tag) => {
  expect(canonicalLanguage(tag)).toBeUndefined();
});

describe('resolveLanguage', () => {
  const available = new Set(['en', 'de', 'fr-CA', 'fr-BE', 'pt-BR']);
  it.each([
    ['de', 'de'], // exact
    ['DE', 'de'], // case-insensitive
    ['de-AT', 'de'], // base language
    ['fr', 'fr-BE'], // a regional form, the first alphabetically
    ['fr-FR', 'fr-BE'], // base missing: a sibling region
    ['pt', 'pt-BR'],
    ['it', 'en'], // none: the default
    ['xx', 'en'],
    ['', 'en'],
    [['de', 'fr'], 'en'], // a repeated parameter is no single tag
    [undefined, 'en'],
  ])('%p → %s', (requested, resolved) => expect(resolveLanguage(requested, available, 'en')).toBe(resolved));
});

it('falls back to the name in the default language when a translation is missing', () => {
  const item = { name: 'Water', translations: { de: 'Wasser' } };
  expect(nameIn(item, 'de')).toBe('Wasser');
  expect(nameIn(item, 'fr-BE')).toBe('Water');
});
