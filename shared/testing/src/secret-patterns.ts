/**
 * Shapes of the secrets this platform mints, for scanning logs: full API keys (the marketplace's
 * `mpk_`, provider-delivery's `pdk_`), webhook signing secrets (`whsec_`, `pwhsec_`), bearer tokens
 * (JWT), the gateway's signed identities, and Authorization header values.
 */
export const SECRET_PATTERNS: [string, RegExp][] = [
  ['API key', /mpk_[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{20,}/],
  ['webhook signing secret', /whsec_[A-Za-z0-9_-]{20,}/],
  ['provider platform API key', /pdk_[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{20,}/],
  ['provider webhook signing secret', /pwhsec_[A-Za-z0-9_-]{20,}/],
  ['bearer token (JWT)', /eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{20,}/],
  ['signed identity', /v1\.eyJ[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{40,}/],
  ['Authorization header value', /(ApiKey|Bearer) [A-Za-z0-9_.-]{20,}/],
];

/** Each secret found in `text`: what it is and where (the value itself is never reported). */
export function findSecrets(text: string): { kind: string; line: number }[] {
  const found: { kind: string; line: number }[] = [];
  text.split('\n').forEach((line, index) => {
    for (const [kind, pattern] of SECRET_PATTERNS) if (pattern.test(line)) found.push({ kind, line: index + 1 });
  });
  return found;
}
