import { isIP } from 'node:net';
import { PROVIDER_LIMITS } from '@marketplace/contracts';
import { AppError } from '@marketplace/errors';
import { isInternalAddress, isLoopbackHost, outboundUrlProblem, withTimeout } from '@marketplace/http';
import { DOES_NOT_RESOLVE, isHostName, RESOLVE_TIMEOUT_MS } from '../../domain/callback-url';
import type { ProviderContext } from '../context';

/**
 * What is wrong with a callback URL a platform gives us (a create's `webhook.url`, the webhook
 * test's `url`), or undefined. The contract's rules: absolute https, at most 2,048 characters, no
 * credentials, no fragment, the standard port, and a host whose addresses are public: a name is
 * resolved now, and every address it gives must be public (the webhook sender resolves it again
 * and checks again when it connects, since DNS can change). `ALLOW_LOOPBACK_HTTP_URLS` admits
 * loopback (http or https, any port) and nothing else. A resolver that does not answer in time
 * (`resolveTimeoutMs`, 2 s unless a caller's own deadline leaves less) is a 503: the URL may be fine.
 */
export async function checkCallbackUrl(
  ctx: ProviderContext,
  raw: string,
  resolveTimeoutMs = RESOLVE_TIMEOUT_MS,
): Promise<string | undefined> {
  const problem = outboundUrlProblem(raw, {
    allowLoopbackHttp: ctx.allowLoopbackHttpUrls,
    standardPortOnly: true,
    maxLength: PROVIDER_LIMITS.callbackUrlMaxLength,
  });
  if (problem) return problem;
  const host = new URL(raw).hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) || isLoopbackHost(host)) return undefined; // literals were judged above
  if (!isHostName(host)) return 'must name a valid host (labels of 1 to 63 letters, digits or hyphens, 253 in all)';
  let addresses: string[];
  try {
    addresses = await withTimeout(ctx.resolveHost(host), resolveTimeoutMs, `the resolution of the callback host`);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code !== undefined && DOES_NOT_RESOLVE.has(code)) return 'must name a host that resolves';
    throw new AppError('unavailable', 'service.unavailable', 'The callback host could not be resolved in time.', {
      retryAfterSeconds: 1,
    });
  }
  if (addresses.length === 0) return 'must name a host that resolves';
  if (
    addresses.some((address) => isInternalAddress(address) && !(ctx.allowLoopbackHttpUrls && isLoopbackHost(address)))
  )
    return 'must not resolve to a private or internal address';
  return undefined;
}
