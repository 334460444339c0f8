import type { KeyObject } from 'node:crypto';
import type Koa from 'koa';
import { AppError } from '@marketplace/errors';
import {
  IDENTITY_HEADER,
  verifyIdentity,
  type CallerIdentity,
  type PartnerIdentity,
  type TenantIdentity,
} from './identity-token';

/** The same answer for every failure, as at the gateway: nothing tells a prober what was wrong. */
export const unauthenticated = () =>
  new AppError('unauthenticated', 'auth.unauthenticated', 'Missing or invalid credentials.');

type Kind = CallerIdentity['kind'];
type IdentityOf<K extends Kind> = K extends 'partner' ? PartnerIdentity : TenantIdentity;

/**
 * Koa middleware for an internal service's externally reachable routes: only a request whose
 * identity the gateway signed, for this very method and path, gets through; the identity is put on
 * `ctx.state.identity`. Anything reaching the internal port directly gets 401.
 */
export function requireIdentity<K extends Kind>(publicKey: KeyObject, kind: K): Koa.Middleware {
  return async (ctx, next) => {
    const identity = verifyIdentity(publicKey, ctx.get(IDENTITY_HEADER) || undefined, {
      method: ctx.method,
      path: ctx.path,
    });
    if (!identity || identity.kind !== kind) throw unauthenticated();
    (ctx.state as { identity?: IdentityOf<K> }).identity = identity as IdentityOf<K>;
    await next();
  };
}

/** The verified identity of the request (after `requireIdentity`). */
export function identityOf<K extends Kind>(
  ctx: Koa.Context | Koa.ParameterizedContext<unknown>,
  kind: K,
): IdentityOf<K> {
  const identity = (ctx.state as { identity?: CallerIdentity }).identity;
  if (!identity || identity.kind !== kind) throw unauthenticated();
  return identity as IdentityOf<K>;
}

/**
 * For a service behind the gateway: every request under `/api/partner/` must carry a partner
 * identity and every request under `/api/tenant/` a tenant identity, signed by the gateway for this
 * method and path; otherwise 401 before anything else happens. Other paths (probes) pass.
 */
export function guardGatewayRoutes(publicKey: KeyObject): Koa.Middleware {
  const partner = requireIdentity(publicKey, 'partner');
  const tenant = requireIdentity(publicKey, 'tenant');
  return async (ctx, next) => {
    if (ctx.path.startsWith('/api/partner/')) await partner(ctx, next);
    else if (ctx.path.startsWith('/api/tenant/')) await tenant(ctx, next);
    else await next();
  };
}
