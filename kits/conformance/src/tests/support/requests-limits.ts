import type { Exchange } from '../../model';

/** A valid create request made `bytes` long (UTF-8) by its notes: only its size is wrong. */
export function hugeCreateBody(request: Record<string, unknown>, bytes: number): Buffer {
  const base = Buffer.byteLength(JSON.stringify({ ...request, notes: '' }), 'utf8');
  return Buffer.from(JSON.stringify({ ...request, notes: 'x'.repeat(Math.max(0, bytes - base)) }), 'utf8');
}

/** An exchange the kit gave up waiting on (rather than one refused or reset): the client says "no answer within N s". */
export const isTimeout = (exchange: Exchange): boolean =>
  exchange.status === null && /no answer within|time[d ]?out|abort/i.test(exchange.error ?? '');

const HTTP_DATE =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/** Retry-After as delay-seconds or an IMF-fixdate HTTP date (RFC 9110). */
export function isRetryAfter(value: string | undefined): boolean {
  if (value === undefined) return false;
  const text = value.trim();
  return /^\d+$/.test(text) || (HTTP_DATE.test(text) && !Number.isNaN(Date.parse(text)));
}
