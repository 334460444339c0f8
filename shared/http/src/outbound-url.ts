import { isIP } from 'node:net';
import { isInternalAddress, isLoopbackHost } from '@marketplace/http';

/**
 * Rules for URLs the service will call (webhook receivers, a partner's OAuth endpoints), checked
 * when an administrator enters them: absolute https, no credentials in the URL, no fragment, and
 * no address literal in a private, loopback, link-local or otherwise internal range. Plain http
 * to loopback is allowed only when the deployment says so (local and test setups). Names are
 * resolved and checked again at connect time by the caller (DNS can change).
 */
export function outboundUrlProblem(raw: string, allowLoopbackHttp: boolean): string | undefined {
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
  return undefined;
}
