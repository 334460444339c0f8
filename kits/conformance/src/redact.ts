import type { Exchange, ReceivedCallback, TestResult } from './model';

/** What replaces a secret in everything the kit writes or prints. */
export const REDACTED = '[redacted]';

/** Headers whose values are credentials or signatures, whatever they hold. */
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'x-platform-signature']);

/** Shorter values would blank out ordinary text; a real key, secret or token is far longer. */
const MIN_SECRET_LENGTH = 4;

/** A body in a report keeps its first 64 KiB (the size is recorded apart). */
export const REPORT_BODY_LIMIT = 64 * 1024;

export interface Redactor {
  text(value: string): string;
  headers(headers: Record<string, string>): Record<string, string>;
}

/** The forms a secret may take in a request or an answer: as is, URL-encoded, JSON-escaped, in Basic credentials. */
function variants(secret: string): string[] {
  return [
    secret,
    encodeURIComponent(secret),
    JSON.stringify(secret).slice(1, -1),
    Buffer.from(`${secret}:`).toString('base64'),
    Buffer.from(secret).toString('base64'),
  ];
}

/** Replaces every secret (API key, webhook secret, callback tokens) by the marker. */
export function createRedactor(secrets: readonly string[]): Redactor {
  const forms = [...new Set(secrets.filter((secret) => secret.length >= MIN_SECRET_LENGTH).flatMap(variants))]
    .filter((form) => form.length >= MIN_SECRET_LENGTH)
    .sort((a, b) => b.length - a.length);
  const text = (value: string): string => forms.reduce((redacted, form) => redacted.split(form).join(REDACTED), value);
  return {
    text,
    headers: (headers) =>
      Object.fromEntries(
        Object.entries(headers).map(([name, value]) => [
          name,
          SECRET_HEADERS.has(name.toLowerCase()) ? REDACTED : text(value),
        ]),
      ),
  };
}

const cut = (text: string | null): string | null =>
  text === null || text.length <= REPORT_BODY_LIMIT
    ? text
    : `${text.slice(0, REPORT_BODY_LIMIT)}… [${text.length - REPORT_BODY_LIMIT} more characters]`;

/** An exchange as a report holds it: redacted, bodies cut to 64 KiB, the parsed JSON left out (the text has it). */
export function redactExchange(exchange: Exchange, redactor: Redactor): Exchange {
  const { json: _json, ...rest } = exchange;
  const redacted: Exchange = {
    ...rest,
    url: redactor.text(exchange.url),
    requestHeaders: redactor.headers(exchange.requestHeaders),
    requestBody: cut(exchange.requestBody === null ? null : redactor.text(exchange.requestBody)),
    responseHeaders: redactor.headers(exchange.responseHeaders),
    responseBody: cut(exchange.responseBody === null ? null : redactor.text(exchange.responseBody)),
  };
  if (exchange.error !== undefined) redacted.error = redactor.text(exchange.error);
  return redacted;
}

export function redactCallback(
  callback: ReceivedCallback,
  redactor: Redactor,
): TestResult['evidence']['callbacks'][number] {
  return {
    label: callback.label,
    path: redactor.text(callback.path),
    headers: redactor.headers(callback.headers),
    body: cut(redactor.text(callback.body.toString('utf8'))) ?? '',
    receivedAt: callback.receivedAt,
    answeredStatus: callback.answeredStatus,
  };
}
