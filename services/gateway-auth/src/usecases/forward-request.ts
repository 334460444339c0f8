import type { KeyObject } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { AppError, notFound } from '@marketplace/errors';
import { nonCanonicalPath } from '@marketplace/http';
import { IDENTITY_HEADER, signIdentity, type CallerIdentity } from '@marketplace/identity';
import type { Logger } from '@marketplace/logging';
import { OWNER_SERVICES, type Owner } from '../domain/partner-routes';

/** A request as it goes on to an owner service. */
export interface UpstreamRequest {
  method: string;
  /** Path and query, as the partner sent them. */
  pathAndQuery: string;
  headers: Record<string, string>;
  body?: string;
}

export interface UpstreamResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** A response whose body is passed on as it arrives (reads: a whole menu need not sit in memory). */
export interface StreamedUpstreamResponse {
  status: number;
  headers: Record<string, string>;
  body: IncomingMessage;
}

/**
 * What forwards a request to an internal service (adapters/upstream.ts: kept-alive connections, a
 * deadline, failures as AppErrors the partner can act on).
 */
export interface Upstream {
  forward(baseUrl: string, req: UpstreamRequest): Promise<UpstreamResponse>;
  forward(baseUrl: string, req: UpstreamRequest, options: { stream: true }): Promise<StreamedUpstreamResponse>;
}

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
export async function forwardToOwner(
  routing: ForwardRouting,
  owner: Owner,
  request: OwnerRequest,
  identity: CallerIdentity,
  log: Logger,
): Promise<UpstreamResponse>;
export async function forwardToOwner(
  routing: ForwardRouting,
  owner: Owner,
  request: OwnerRequest,
  identity: CallerIdentity,
  log: Logger,
  stream: true,
): Promise<StreamedUpstreamResponse>;
export async function forwardToOwner(
  routing: ForwardRouting,
  owner: Owner,
  request: OwnerRequest,
  identity: CallerIdentity,
  log: Logger,
  stream = false,
): Promise<UpstreamResponse | StreamedUpstreamResponse> {
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
  return response;
}
