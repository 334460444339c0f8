/**
 * Deepest nesting accepted in a JSON body. No request of ours comes near it; a body of a few
 * hundred kilobytes of `[[[[…` would otherwise reach code that walks values recursively (hashing,
 * validation, logging) and end in a stack overflow, a 500 instead of a clear 400.
 */
export const MAX_JSON_DEPTH = 64;

/** Whether the JSON text nests arrays or objects deeper than `max` (one pass, strings skipped). */
export function jsonNestedDeeperThan(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}
