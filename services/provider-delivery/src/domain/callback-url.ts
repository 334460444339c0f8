/** Resolver answers that say the name has no address (the others, a timeout included, may pass). */
export const DOES_NOT_RESOLVE = new Set(['ENOTFOUND', 'ENODATA', 'EINVAL', 'EAI_FAIL', 'EAI_NONAME', 'EBADNAME']);

/** A DNS host name (as `URL` leaves it: lower case, IDN in punycode): 1-63 per label, 253 in all. */
export function isHostName(host: string): boolean {
  const name = host.endsWith('.') ? host.slice(0, -1) : host;
  return (
    name.length > 0 &&
    name.length <= 253 &&
    name.split('.').every((label) => /^[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?$/i.test(label))
  );
}

/** How long a callback host's resolution may take before the request is answered 503. */
export const RESOLVE_TIMEOUT_MS = 2_000;
