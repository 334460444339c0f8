import type { RouterContext } from '@koa/router';
import { AppError, notFound, validationError } from '@marketplace/errors';
import { requestBody, requestFingerprint, type RequestState, type RouteTable } from '@marketplace/http';
import { unauthenticated, type PartnerIdentity } from '@marketplace/identity';
import { checkIdempotencyKey } from '../../domain/idempotency';
import {
  hasScope,
  isMutation,
  PARTNER_PREFIX,
  PARTNER_ROUTES,
  upstreamPath,
  validPathParams,
  type PartnerRoute,
} from '../../domain/partner-routes';
import { PARTNER_EXTENSION_ROUTES } from '../../domain/partner-extension-routes';
import type { GatewayContext } from '../../usecases/context';
import type { ForwardRouting } from '../../usecases/forward-to-owner';
import type { StreamedUpstreamResponse, UpstreamResponse } from '../../usecases/ports';
import { askHeldAssignment } from '../../usecases/ask-held-assignment';
import {
  runIdempotentRequest,
  type IdempotencySettings,
  type StoredResponse,
} from '../../usecases/run-idempotent-request';
import { partnerApiDocument } from '../openapi/partner-api';
import { forwardSigned, sendUpstream } from '../forward';
import { PARTNER_OPENAPI_PATH, type PartnerState } from './edge';

export interface PartnerRouting extends ForwardRouting {
  idempotency: IdempotencySettings;
}

type PartnerContext = RouterContext<PartnerState>;

const insufficientScope = () =>
  new AppError('forbidden', 'auth.insufficient_scope', 'The installation lacks the scope this endpoint requires.');

/**
 * Every Partner API route, from the spec's table and our extension's: check the scope, require and honour the
 * Idempotency-Key on POST and PATCH, and forward to the owning service with the caller's signed
 * identity. The owner checks ownership (a scope alone never reaches another installation's data).
 */
export function registerPartnerRoutes(routes: RouteTable, ctx: GatewayContext, routing: PartnerRouting): void {
  routes.get(PARTNER_OPENAPI_PATH, 'public', (c) => {
    c.set('Cache-Control', 'public, max-age=300');
    c.body = partnerApiDocument;
  });
  for (const route of [...PARTNER_ROUTES, ...PARTNER_EXTENSION_ROUTES]) {
    const path = `${PARTNER_PREFIX}${route.pattern}`;
    const handler = (c: RouterContext<RequestState>) => handle(ctx, routing, route, c);
    if (route.method === 'GET') routes.get(path, 'partner', handler);
    else if (route.method === 'POST') routes.post(path, 'partner', handler);
    else routes.patch(path, 'partner', handler);
  }
}

async function handle(
  ctx: GatewayContext,
  routing: PartnerRouting,
  route: PartnerRoute,
  c: PartnerContext,
): Promise<void> {
  const caller = c.state.partner;
  if (!caller) throw unauthenticated(); // the edge sets it for every partner route
  if (!validPathParams(c.params)) throw notFound();
  if (!hasScope(route, caller.scopes)) throw insufficientScope();

  const identity: PartnerIdentity = {
    kind: 'partner',
    tenantId: caller.tenantId,
    tenant: caller.tenant,
    installationId: caller.installationId,
    appId: caller.appId,
    scopes: caller.scopes,
  };
  if (!isMutation(route)) {
    if (route.asksHeldAssignment && caller.scopes.includes('Orders.Read')) {
      const held = await askHeldAssignment(routing, identity, c.params.orderId!, c.state.requestId, c.state.log);
      if (held) identity.heldAssignment = held;
    }
    return sendUpstream(c, await forwardRead(routing, route, c, identity)); // streamed as it comes (gzip too)
  }

  const key = c.get('idempotency-key'); // '' when absent: missing and empty are the same problem
  const problem = checkIdempotencyKey(key);
  if (problem === 'missing')
    throw validationError('idempotency.key_missing', 'The Idempotency-Key header is required on POST and PATCH.');
  if (problem)
    throw validationError(
      'idempotency.key_invalid',
      'The Idempotency-Key header must be 1 to 128 characters without leading or trailing whitespace.',
    );
  const fingerprint = requestFingerprint(c.method, c.path, requestBody(c));
  const result = await runIdempotentRequest(
    ctx,
    routing.idempotency,
    { owner: { tenantId: caller.tenantId, installationId: caller.installationId }, key, fingerprint },
    async () => toStored(await forward(routing, route, c, { ...identity, idempotencyKey: key })),
  );
  send(c, result.response, result.replayed);
}

function forward(
  routing: PartnerRouting,
  route: PartnerRoute,
  c: PartnerContext,
  identity: PartnerIdentity,
): Promise<UpstreamResponse> {
  return forwardSigned(routing, route.owner, c, identity, upstreamPath(PARTNER_PREFIX + route.pattern, c.params));
}

function forwardRead(
  routing: PartnerRouting,
  route: PartnerRoute,
  c: PartnerContext,
  identity: PartnerIdentity,
): Promise<StreamedUpstreamResponse> {
  return forwardSigned(routing, route.owner, c, identity, upstreamPath(PARTNER_PREFIX + route.pattern, c.params), true);
}

function toStored(response: UpstreamResponse): StoredResponse {
  return { status: response.status, headers: response.headers, body: response.body.toString('utf8') };
}

function send(c: PartnerContext, response: StoredResponse, replayed: boolean): void {
  sendUpstream(c, response);
  if (replayed) c.set('Idempotent-Replayed', 'true');
}
