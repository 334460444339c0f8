import type { Exchange } from '../../model';

const ALPHABETS = ['abcdefghijklmnopqrstuvwxyz', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', '0123456789'];

/** Each letter or digit moved one on in its own alphabet; punctuation kept. */
function shifted(text: string): string {
  let out = '';
  for (const char of text) {
    const alphabet = ALPHABETS.find((letters) => letters.includes(char));
    out += alphabet === undefined ? char : alphabet[(alphabet.indexOf(char) + 1) % alphabet.length];
  }
  return out;
}

/**
 * A key of the same length and alphabet as `key`, characters changed. A key made of parts
 * (`prefix_account_secret`) keeps all but its last part when that part is long, so a provider
 * that finds the account by a prefix still has to check the secret.
 */
export function wrongKeyLike(key: string): string {
  const cut = Math.max(key.lastIndexOf('_'), key.lastIndexOf('-'), key.lastIndexOf('.')) + 1;
  const keep = key.length - cut >= 8 ? cut : 0;
  const out = key.slice(0, keep) + shifted(key.slice(keep));
  return out === key ? `${key}x` : out;
}

/** Where the answer repeats any of `credentials`: "body" and/or "headers" (empty when nowhere). */
export function credentialEchoes(exchange: Exchange, credentials: readonly string[]): string[] {
  const present = (text: string | null): boolean =>
    text !== null && credentials.some((c) => c.length >= 4 && text.includes(c));
  const places: string[] = [];
  if (present(exchange.responseBody)) places.push('body');
  if (present(Object.values(exchange.responseHeaders).join('\n'))) places.push('headers');
  return places;
}
