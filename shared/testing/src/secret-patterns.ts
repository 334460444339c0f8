/**
 * Shapes of the secrets this platform mints or sees, for scanning logs, metric scrapes and error
 * bodies: full API keys (the marketplace's `mpk_`, provider-delivery's `pdk_`), courier tokens
 * (`pdd_`), tracking tokens (`trk_`, the secret of a public tracking page), webhook signing secrets
 * (`whsec_` in either base64 alphabet, `pwhsec_`), a tenant's payment processor secret (`ppsec_`), bearer tokens (JWT: administrator, tenant and OpenID Connect ID tokens),
 * the gateway's signed identities, Authorization header values (ApiKey, Bearer, Basic: the OAuth
 * client's id and secret), and OAuth values or phone numbers written out under their own name.
 * Opaque OAuth tokens and callback tokens have no shape of their own: the exact values a test run
 * issued (issued-secrets.ts) cover them. A key id alone (`mpk_…` without its secret) is public.
 */
export const SECRET_PATTERNS: [string, RegExp][] = [
  ['API key', /mpk_[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{20,}/],
  // Standard base64 (`+/`, `=` padded) since partner webhooks carry Standard Webhooks headers;
  // base64url before, and those secrets are still in use.
  ['webhook signing secret', /(?<!p)whsec_[A-Za-z0-9+/_-]{20,}/],
  ['provider platform API key', /pdk_[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{20,}/],
  ['provider webhook signing secret', /pwhsec_[A-Za-z0-9_-]{20,}/],
  ['payment processor secret', /ppsec_[A-Za-z0-9_-]{20,}/],
  ['courier token', /pdd_[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{20,}/],
  ['tracking token', /trk_[A-Za-z0-9_-]{22}/],
  ['bearer token (JWT)', /eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{20,}/],
  ['signed identity', /v1\.eyJ[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{40,}/],
  ['Authorization header value', /(ApiKey|Bearer|Basic) [A-Za-z0-9_.+/=-]{20,}/],
  [
    'OAuth token or client secret',
    /["']?(access_token|refresh_token|id_token|client_secret|code_verifier|accessToken|refreshToken|clientSecret)["']?\s*[:=]\s*["']?[A-Za-z0-9._~+/-]{16,}/,
  ],
  ['phone number', /["']?(driverPhone|driver_phone|phone)["']?\s*[:=]\s*["']\+?[0-9][0-9 .()-]{5,}/],
];

/** Each secret found in `text`: what it is and where (the value itself is never reported). */
export function findSecrets(text: string): { kind: string; line: number }[] {
  const found: { kind: string; line: number }[] = [];
  text.split('\n').forEach((line, index) => {
    for (const [kind, pattern] of SECRET_PATTERNS) if (pattern.test(line)) found.push({ kind, line: index + 1 });
  });
  return found;
}
