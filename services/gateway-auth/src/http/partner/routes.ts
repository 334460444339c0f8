import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import { AppError, notFound, validationError } from '@marketplace/errors';
import { rawRequestBody, requestBody, type RequestState } from '@marketplace/http';
import { IDENTITY_HEADER, signIdentity, unauthenticated, type PartnerIdentity } from '@marketplace/identity';
import type { KeyObject } from 'node:crypto';
import type { UpstreamClient, UpstreamResponse } from '../../adapters/upstream';
import { checkIdempotencyKey, requestFingerprint } from '../../domain/idempotency';
import { hasScope, isMutation, PARTNER_PREFIX, PARTNER_ROUTES, validPathParams, type Owner, type PartnerRoute } from '../../domain/partner-routes';
import type { GatewayContext } from '../../usecases/context';
import { runIdempotent, type IdempotencySettings, type StoredResponse } from '../../usecases/idempotent-request';
import { partnerApiDocument } from '../openapi/partner-api';
import { PARTNER_OPENAPI_PATH, type PartnerState } from './edge';

export interface PartnerRouting {
  upstreams: Record<Owner, string>;
  client: UpstreamClient;
  identityKey: KeyObject;
  idempotency: IdempotencySettings;
}

type PartnerContext = RouterContext<PartnerState>;

const insufficientScope = () => new AppError('forbidden', 'auth.insufficient_scope', 'The installation lacks the scope this endpoint requires.');

/**
 * Headers of the partner's request that the owner service needs; everything else stays here.
 * Not Accept-Language: the spec resolves the catalog language from the query parameter alone.
 */
const FORWARDED = ['content-type', 'accept'];

/**
 * Every Partner API route, from the spec's table: check the scope, require and honour the
 * Idempotency-Key on POST and PATCH, and forward to the owning service with the caller's signed
 * identity. The owner checks ownership (a scope alone never reaches another installation's data).
 */
export function registerPartnerRoutes(router: Router<RequestState>, ctx: GatewayContext, routing: PartnerRouting): void {
  router.get(PARTNER_OPENAPI_PATH, (c) => {
    c.set('Cache-Control', 'public, max-age=300');
    c.body = partnerApiDocument;
  });
  for (const route of PARTNER_ROUTES) {
    const path = `${PARTNER_PREFIX}${route.pattern}`;
    const handler = (c: RouterContext<RequestState>) => handle(ctx, routing, route, c as PartnerContext);
    if (route.method === 'GET') router.get(path, handler);
    else if (route.method === 'POST') router.post(path, handler);
    else router.patch(path, handler);
  }
}

async function handle(ctx: GatewayContext, routing: PartnerRouting, route: PartnerRoute, c: PartnerContext): Promise<void> {
  const caller = c.state.partner;
  if (!caller) throw unauthenticated(); // the edge sets it for every partner route
  if (!validPathParams(c.params)) throw notFound();
  if (!hasScope(route, caller.scopes)) throw insufficientScope();

  const identity: PartnerIdentity = { kind: 'partner', tenantId: caller.tenantId, installationId: caller.installationId, appId: caller.appId, scopes: caller.scopes };
  if (!isMutation(route)) return send(c, toStored(await forward(routing, route, c, identity)), false);

  const key = c.get('idempotency-key'); // '' when absent: missing and empty are the same problem
  const problem = checkIdempotencyKey(key);
  if (problem === 'missing') throw validationError('idempotency.key_missing', 'The Idempotency-Key header is required on POST and PATCH.');
  if (problem) throw validationError('idempotency.key_invalid', 'The Idempotency-Key header must be 1 to 128 characters without leading or trailing whitespace.');
  const fingerprint = requestFingerprint(c.method, c.path, requestBody(c));
  const result = await runIdempotent(ctx, routing.idempotency, { installationId: caller.installationId, key, fingerprint }, async () =>
    toStored(await forward(routing, route, c, { ...identity, idempotencyKey: key })),
  );
  send(c, result.response, result.replayed);
}

async function forward(routing: PartnerRouting, route: PartnerRoute, c: PartnerContext, identity: PartnerIdentity): Promise<UpstreamResponse> {
  const headers: Record<string, string> = { 'x-request-id': c.state.requestId };
  for (const name of FORWARDED) {
    const value = c.get(name);
    if (value) headers[name] = value;
  }
  headers[IDENTITY_HEADER] = signIdentity(routing.identityKey, identity, { method: c.method, path: c.path });
  if (identity.idempotencyKey) headers['idempotency-key'] = identity.idempotencyKey;
  const response = await routing.client.forward(routing.upstreams[route.owner], { method: c.method, pathAndQuery: c.url, headers, body: rawRequestBody(c) });
  if (response.status === 401) {
    // Our own identity was refused: keys or clocks disagree. That is our fault, not the partner's.
    c.state.log.error({ owner: route.owner }, 'internal service refused the signed identity; check INTERNAL_IDENTITY_* keys and clocks');
    throw new AppError('bad_gateway', 'upstream.bad_response', 'The service failed to answer.');
  }
  return response;
}

function toStored(response: UpstreamResponse): StoredResponse {
  return { status: response.status, headers: response.headers, body: response.body.toString('utf8') };
}

function send(c: PartnerContext, response: StoredResponse, replayed: boolean): void {
  c.status = response.status;
  for (const [name, value] of Object.entries(response.headers)) c.set(name, value);
  if (replayed) c.set('Idempotent-Replayed', 'true');
  c.body = response.body; // Koa keeps the Content-Type set above
}
