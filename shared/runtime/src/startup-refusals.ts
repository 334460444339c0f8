/**
 * A start-up failure that waiting will not mend: the component answered and refused us (a wrong
 * password, an unknown user) or its certificate is not one we trust. Start-up stops at the first
 * one, naming the component and the cause, instead of retrying until STARTUP_TIMEOUT_MS as it
 * does for a component that is not up yet. The cause never holds a secret: it is the client's
 * own error name or code, or a fixed phrase.
 */
const UNTRUSTED_CERTIFICATE = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** Every error of a chain: kafkajs keeps the first in `originalError` (retries) or `cause`. */
function chain(error: unknown): Record<string, unknown>[] {
  const seen: Record<string, unknown>[] = [];
  let current: unknown = error;
  while (
    current &&
    typeof current === 'object' &&
    !seen.includes(current as Record<string, unknown>) &&
    seen.length < 10
  ) {
    const e = current as Record<string, unknown>;
    seen.push(e);
    current = e.originalError ?? e.cause;
  }
  return seen;
}

/** Why `error` will not pass by waiting, or undefined when a retry may help. */
export function refusalOf(error: unknown): string | undefined {
  for (const e of chain(error)) {
    const name = typeof e.name === 'string' ? e.name : '';
    const message = typeof e.message === 'string' ? e.message : '';
    const code = typeof e.code === 'string' ? e.code : undefined;
    if (code && UNTRUSTED_CERTIFICATE.has(code)) return `its certificate is not trusted (${code})`;
    const certificate = [...UNTRUSTED_CERTIFICATE].find((c) => message.includes(c.toLowerCase().replace(/_/g, ' ')));
    if (certificate || /self[- ]signed certificate|unable to verify the first certificate/i.test(message))
      return `its certificate is not trusted (${certificate ?? 'self-signed or unknown issuer'})`;
    if (name === 'KafkaJSSASLAuthenticationError') return 'it refused the credentials (SASL authentication failed)';
    if (/^(WRONGPASS|NOAUTH)\b/.test(message)) return `it refused the credentials (${message.split(' ')[0]})`;
    if (name === 'MongoServerError' && (e.code === 18 || e.codeName === 'AuthenticationFailed'))
      return 'it refused the credentials (AuthenticationFailed)';
    const status = typeof e.status === 'number' ? e.status : /answered (401|403)\b/.exec(message)?.[1];
    if (Number(status) === 401 || Number(status) === 403) return `it refused the credentials (HTTP ${Number(status)})`;
  }
  return undefined;
}

/**
 * The races every start meets and the retry mends (several services creating the same topics or
 * registering the same subjects at once, a partition leader or group coordinator still being
 * chosen): logged at debug. A start that never gets past one still ends with it in its fatal line.
 */
const STARTUP_RACES = [
  /Topic creation errors/,
  /does not host this topic-partition/,
  /group coordinator is not available/i,
  /coordinator is loading/i,
  /There is no leader for this topic-partition/,
  /Compatibility does not match the configuration/,
  /already exists/,
];

export function isStartupRace(error: unknown): boolean {
  return chain(error).some(
    (e) => typeof e.message === 'string' && STARTUP_RACES.some((race) => race.test(e.message as string)),
  );
}
