import type { Exchange, ReceivedCallback } from '../../model';

/**
 * What an error body must not expose ("Errors": stack traces, SQL, secrets, internal exception
 * types, credentials). Patterns are narrow on purpose: an error message in plain words ("select a
 * currency from the list") is no leak.
 */
const LEAK_PATTERNS: ReadonlyArray<[string, RegExp]> = [
  ['a stack trace', /\bat \S+ \([^\s()]*[/\\.][^\s()]*:\d+:\d+\)/],
  ['a stack trace', /(?:^|\\n|\n) {4}at /],
  ['SQL', /\bSELECT\b[\s\S]{1,200}?\bFROM\b/],
  ['SQL', /\bINSERT INTO\b/],
  ['an exception type', /\b(?:Type|Range|Reference|Syntax|Eval|URI|Aggregate|Internal)Error\b/],
  ['an exception type', /\w*Exception\b/],
  ['an exception type', /\w*Error:/],
];

/** Each kind of leak found in `body` ("a stack trace", "SQL", "an exception type", or a secret's name). */
export function leaksIn(body: string, secrets: ReadonlyArray<[string, string]>): string[] {
  const found = new Set<string>();
  for (const [kind, pattern] of LEAK_PATTERNS) if (pattern.test(body)) found.add(kind);
  for (const [name, secret] of secrets) if (secret.length >= 8 && body.includes(secret)) found.add(name);
  return [...found];
}

/** The last segment of a URL's path, when it is long enough to be a token (the callback's routing key). */
function tokenOf(url: string): string | undefined {
  try {
    const last = new URL(url, 'https://relative.invalid').pathname.split('/').pop() ?? '';
    return last.length >= 16 ? last : undefined;
  } catch {
    return undefined;
  }
}

function callbackUrlIn(requestBody: string | null): string | undefined {
  if (requestBody === null || !requestBody.includes('"webhook"')) return undefined;
  try {
    const url = (JSON.parse(requestBody) as { webhook?: { url?: unknown } } | null)?.webhook?.url;
    return typeof url === 'string' ? url : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The callback tokens of the run: those of the kit's own receiver (`receiverOrigin`), taken from
 * the callback URLs sent in create requests and from the paths callbacks arrived at. URLs of other
 * hosts (the deliberately bad callbacks) carry no token of the kit.
 */
export function callbackTokens(
  exchanges: readonly Exchange[],
  callbacks: readonly ReceivedCallback[],
  receiverOrigin: string,
): string[] {
  const tokens = new Set<string>();
  for (const exchange of exchanges) {
    const url = callbackUrlIn(exchange.requestBody);
    if (url === undefined || !url.startsWith(receiverOrigin)) continue;
    const token = tokenOf(url);
    if (token !== undefined) tokens.add(token);
  }
  for (const callback of callbacks) {
    const token = tokenOf(callback.path);
    if (token !== undefined) tokens.add(token);
  }
  return [...tokens];
}
