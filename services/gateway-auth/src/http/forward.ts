import type { RouterContext } from '@koa/router';
import { rawRequestBody, type RequestState } from '@marketplace/http';
import type { CallerIdentity } from '@marketplace/identity';
import type { Readable } from 'node:stream';
import type { Owner } from '../domain/partner-routes';
import { forwardToOwner, type ForwardRouting } from '../usecases/forward-to-owner';
import type { StreamedUpstreamResponse, UpstreamResponse } from '../usecases/ports';

/**
 * Headers of the caller's request that the owner service needs; everything else (credentials
 * first) stays here. Not Accept-Language: the spec resolves the catalog language from the query
 * parameter alone.
 */
const FORWARDED = ['content-type', 'accept'];
/**
 * Reads only: the owner may answer 304 to a revalidation or send its own gzip form. Not on
 * mutations, whose answers are stored as text for idempotent replays.
 */
const FORWARDED_ON_READS = ['accept-encoding', 'if-none-match'];

/**
 * Forwards the request to its owner at `path`, the upstream path built from the matched route (never
 * the caller's raw path), with the query as received (usecases/forward-to-owner.ts signs the caller's
 * identity for it). A read (`stream`) gets the owner's body as a stream, passed on as it arrives;
 * other answers are read whole (they may be stored for idempotent replays).
 */
export async function forwardSigned(
  routing: ForwardRouting,
  owner: Owner,
  c: RouterContext<RequestState>,
  identity: CallerIdentity,
  path: string,
): Promise<UpstreamResponse>;
export async function forwardSigned(
  routing: ForwardRouting,
  owner: Owner,
  c: RouterContext<RequestState>,
  identity: CallerIdentity,
  path: string,
  stream: true,
): Promise<StreamedUpstreamResponse>;
export async function forwardSigned(
  routing: ForwardRouting,
  owner: Owner,
  c: RouterContext<RequestState>,
  identity: CallerIdentity,
  path: string,
  stream = false,
): Promise<UpstreamResponse | StreamedUpstreamResponse> {
  const headers: Record<string, string> = { 'x-request-id': c.state.requestId };
  for (const name of c.method === 'GET' ? [...FORWARDED, ...FORWARDED_ON_READS] : FORWARDED) {
    const value = c.get(name);
    if (value) headers[name] = value;
  }
  const pathAndQuery = c.querystring ? `${path}?${c.querystring}` : path;
  const request = { method: c.method, path, pathAndQuery, headers, body: rawRequestBody(c) };
  return stream
    ? forwardToOwner(routing, owner, request, identity, c.state.log, true)
    : forwardToOwner(routing, owner, request, identity, c.state.log);
}

/** Writes an owner's (or a stored) response back to the caller. */
export function sendUpstream(
  c: RouterContext<RequestState>,
  response: { status: number; headers: Record<string, string>; body: string | Buffer | Readable },
): void {
  c.status = response.status;
  for (const [name, value] of Object.entries(response.headers)) c.set(name, value);
  const bodiless = response.status === 204 || response.status === 304 || c.method === 'HEAD';
  if (bodiless && typeof response.body !== 'string' && !Buffer.isBuffer(response.body)) {
    response.body.resume(); // read it to its end so the kept-alive connection is free again
    return;
  }
  c.body = response.body; // Koa keeps the Content-Type set above
}
