/**
 * Request headers as the common servers hand them over: Node's `IncomingMessage.headers` (lowercase
 * names, a value or an array), a plain object with any casing, or a Fetch `Headers` (Koa, Express,
 * Fastify, Next.js route handlers, undici).
 */
export type HeaderSource =
  Record<string, string | readonly string[] | undefined> | { get(name: string): string | null };

/** One header's value, its name matched without regard to case; repeated values joined by ", " (RFC 9110). */
export function readHeader(headers: HeaderSource, name: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === 'function') {
    return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  }
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers as Record<string, string | readonly string[] | undefined>)) {
    if (key.toLowerCase() !== wanted || value === undefined) continue;
    return typeof value === 'string' ? value : value.join(', ');
  }
  return undefined;
}
