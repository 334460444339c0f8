/**
 * Why a request path (as received, not decoded) is not in the one canonical form our routes are
 * written in, or undefined when it is. Refused: empty segments (`//`, a trailing `/` after another
 * segment is the router's business: strict routing makes it another, unknown path), dot segments
 * (`/./`, `/../`, also at the end), percent-encoded dots, slashes and backslashes (`%2e`, `%2f`,
 * `%5c`, any case), a raw backslash, and a NUL. A proxy or a client library could resolve any of
 * these into another path than the one that was authorized.
 */
export function nonCanonicalPath(path: string): string | undefined {
  if (!path.startsWith('/')) return 'it does not start with /';
  if (path.includes('\\')) return 'it has a backslash';
  if (/%(2e|2f|5c|00)/i.test(path)) return 'it has an encoded dot, slash, backslash or NUL';
  const segments = path.split('/').slice(1);
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    if (segment === '.' || segment === '..') return 'it has a dot segment';
    // An empty segment anywhere but at the very end (`/a//b`); `/` alone is the root.
    if (segment === '' && i < segments.length - 1) return 'it has an empty segment';
  }
  return undefined;
}
