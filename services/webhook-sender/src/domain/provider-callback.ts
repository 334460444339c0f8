/**
 * Rules of the delivery-provider contract's callbacks (`provider-callback` deliveries) that need no
 * I/O: who owns them, what may be shown of the callback URL, and the terminal rule's wording.
 */

/** The owner of a provider callback: the platform account the provider delivery belongs to. */
export interface AccountOwner {
  readonly accountId: string;
}

/**
 * The contract's "Events" rule 4: after a terminal event, no nonterminal event of the delivery is
 * sent. The reason a nonterminal callback ends with when a terminal event of its delivery exists.
 */
export const SUPERSEDED_BY_TERMINAL = 'superseded: a terminal event of the delivery was sent';

/**
 * How long a terminal callback waits, at most, for the earlier events of its delivery to have their
 * first attempt, and how often it looks again. Past the bound it goes anyway (an earlier event the
 * sender has not reached by then is cancelled by the terminal rule: the platform has the outcome).
 */
export const TERMINAL_HOLD = { maxMs: 30_000, stepMs: 250 } as const;

/**
 * What may be shown of a callback URL: its scheme and host (with a port other than the default),
 * never its path or query, which carry the delivery's confidential routing token ("Per-delivery
 * callback"). Null when the text is not an absolute URL.
 */
export function callbackOrigin(url: string): string | null {
  try {
    const { origin } = new URL(url);
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

/**
 * `text` with every form of `url` that could reveal its token (the whole URL, its path and query,
 * each path segment and query value of some length) replaced by `[redacted]`. For free text that
 * comes back from the HTTP layer (a network error's message) before it is stored or logged: the
 * client never names a path today, and this keeps it so should a message ever quote one.
 */
export function redactUrl(text: string, url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return text.split(url).join('[redacted]');
  }
  const secrets = [
    url,
    parsed.href,
    `${parsed.pathname}${parsed.search}`,
    ...parsed.pathname.split('/').map(decodeSafely),
    ...parsed.pathname.split('/'),
    ...[...parsed.searchParams.values()],
  ]
    // Short pieces ("v1", "hooks") are no secret and would garble the message.
    .filter((piece) => piece.length >= MIN_SECRET_PIECE && piece !== '/')
    .sort((a, b) => b.length - a.length);
  return secrets.reduce((redacted, piece) => redacted.split(piece).join('[redacted]'), text);
}

/** Path segments and query values shorter than this are left alone by redactUrl. */
const MIN_SECRET_PIECE = 8;

function decodeSafely(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
