import { isIP } from 'node:net';
import { isInternalAddress, isLoopbackHost } from './outbound-address';

/** What a caller of URLs asks beyond the common rules. */
export interface OutboundUrlRules {
  /** Local and test setups: plain http (and any port) to the loopback interface is accepted. */
  allowLoopbackHttp: boolean;
  /**
   * Only the scheme's standard port (443 for https): the provider contract says nonstandard ports
   * SHOULD be rejected for callbacks. Loopback URLs admitted by `allowLoopbackHttp` keep any port.
   */
  standardPortOnly?: boolean;
  /** Longest URL accepted, in characters (the provider contract: 2,048). */
  maxLength?: number;
}

/**
 * Rules for URLs the service will call (webhook receivers, a partner's OAuth endpoints, a platform's
 * callbacks), checked when they are entered: absolute https, no credentials in the URL, no
 * fragment, and no address literal in a private, loopback, link-local or otherwise internal range.
 * Plain http to loopback is allowed only when the deployment says so (local and test setups). Names
 * are resolved and checked again at connect time by the caller (DNS can change).
 */
export function outboundUrlProblem(raw: string, rules: OutboundUrlRules): string | undefined {
  const { allowLoopbackHttp, standardPortOnly = false, maxLength } = rules;
  if (maxLength !== undefined && raw.length > maxLength) return `must be at most ${maxLength} characters`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.username || url.password) return 'must not contain credentials';
  if (url.hash) return 'must not contain a fragment';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const loopback = isLoopbackHost(host);
  if (url.protocol === 'http:') return allowLoopbackHttp && loopback ? undefined : 'must use https';
  if (url.protocol !== 'https:') return 'must use https';
  if (loopback) return allowLoopbackHttp ? undefined : 'must not point at this host';
  if (isIP(host) && isInternalAddress(host)) return 'must not point at a private or internal address';
  // `URL` drops the scheme's default port, so any port left is a nonstandard one.
  if (standardPortOnly && url.port !== '') return 'must use the standard https port (443)';
  return undefined;
}
