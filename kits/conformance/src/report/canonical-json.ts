/**
 * The canonical form a report is signed over: keys sorted recursively (by code unit), no
 * whitespace, `undefined` members left out as JSON.stringify leaves them out, so a report and the
 * same report read back from its file give the same bytes.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value))
    return `[${value.map((item) => canonicalJson(item === undefined || typeof item === 'function' ? null : item)).join(',')}]`;
  if (Buffer.isBuffer(value)) return JSON.stringify(value.toString('utf8'));
  const members = Object.keys(value)
    .filter(
      (key) =>
        (value as Record<string, unknown>)[key] !== undefined &&
        typeof (value as Record<string, unknown>)[key] !== 'function',
    )
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
  return `{${members.join(',')}}`;
}
