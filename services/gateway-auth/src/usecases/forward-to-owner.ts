import type { KeyObject } from 'node:crypto';
import { AppError, notFound } from '@marketplace/errors';
import { nonCanonicalPath } from '@marketplace/http';
import { IDENTITY_HEADER, signIdentity, type CallerIdentity } from '@marketplace/identity';
import type { Logger } from '@marketplace/logging';
import { OWNER_SERVICES, type Owner } from '../domain/partner-routes';
import type { StreamedUpstreamResponse, Upstream, UpstreamRequest, UpstreamResponse } from './ports';

/** Where the owner services are and how the gateway vouches for its callers to them. */
export interface ForwardRouting {
  upstreams: Record<Owner, string>;
  client: Upstream;
  identityKey: KeyObject;
}

/** The caller's request as the HTTP layer hands it over: the headers the owner may see, the raw body. */
export interface OwnerRequest {
  method: string;
  /** The path alone: what the signed identity is bound to. */
  path: string;
  pathAndQuery: string;
  headers: Record<string, string>;
  body?: string;
}

/**
 * Forwards the request as received to its owner, with the caller's identity signed for it (bound
 * to the method and path) and, for a partner, its Idempotency-Key. A read (`stream`) gets the
 * owner's body as a stream; other answers are read whole (they may be stored for idempotent
 * replays). An owner refusing our own signed identity is our fault, not the caller's: 502.
 */
export async function forwardToOwner<Stream extends boolean = false>(
  routing: ForwardRouting,
  owner: Owner,
  request: OwnerRequest,
  identity: CallerIdentity,
  log: Logger,
  stream?: Stream,
): Promise<Stream extends true ? StreamedUpstreamResponse : UpstreamResponse> {
  const headers = { ...request.headers };
  // The path was built from the matched route; one that is not canonical would be resolved by the
  // URL parser into another: never sent (the HTTP layer refuses such a request before routing).
  if (nonCanonicalPath(request.path)) throw notFound();
  headers[IDENTITY_HEADER] = signIdentity(routing.identityKey, identity, {
    method: request.method,
    path: request.path,
    service: OWNER_SERVICES[owner],
  });
  if (identity.kind === 'partner' && identity.idempotencyKey) headers['idempotency-key'] = identity.idempotencyKey;
  const upstream: UpstreamRequest = {
    method: request.method,
    pathAndQuery: request.pathAndQuery,
    headers,
    body: request.body,
  };
  const response = stream
    ? await routing.client.forward(routing.upstreams[owner], upstream, { stream: true })
    : await routing.client.forward(routing.upstreams[owner], upstream);
  if (response.status === 401) {
    if (!Buffer.isBuffer(response.body)) response.body.resume(); // drain it; the caller gets our 502
    // Our own identity was refused: keys or clocks disagree. That is our fault, not the caller's.
    log.error({ owner }, 'internal service refused the signed identity; check INTERNAL_IDENTITY_* keys and clocks');
    throw new AppError('bad_gateway', 'upstream.bad_response', 'The service failed to answer.');
  }
  // Which of the two the owner's answer is follows from `stream` (the type parameter says so).
  return response as Stream extends true ? StreamedUpstreamResponse : UpstreamResponse;
}
