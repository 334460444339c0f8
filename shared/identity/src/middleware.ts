import type { KeyObject } from 'node:crypto';
import type Koa from 'koa';
import { AppError } from '@marketplace/errors';
import {
  IDENTITY_HEADER,
  verifyIdentity,
  type AdminIdentity,
  type CallerIdentity,
  type PartnerIdentity,
  type ProcessorIdentity,
  type TenantIdentity,
} from './identity-token';

/** The same answer for every failure, as at the gateway: nothing tells a prober what was wrong. */
export const unauthenticated = () =>
  new AppError('unauthenticated', 'auth.unauthenticated', 'Missing or invalid credentials.');

type Kind = CallerIdentity['kind'];
type IdentityOf<K extends Kind> = K extends 'partner'
  ? PartnerIdentity
  : K extends 'processor'
    ? ProcessorIdentity
    : K extends 'admin'
      ? AdminIdentity
      : TenantIdentity;

/**
 * The check of the `partner` or `tenant` audience at a service behind the gateway (a route table's
 * guard): only a request whose identity the gateway signed for this very method, path and service
 * gets through; the identity is put on `ctx.state.identity`. Anything reaching the internal port
 * directly, or a token issued for another request or service, gets 401.
 */
export function requireIdentity<K extends Kind>(publicKey: KeyObject, kind: K, service: string): Koa.Middleware {
  return async (ctx, next) => {
    const identity = verifyIdentity(publicKey, ctx.get(IDENTITY_HEADER) || undefined, {
      method: ctx.method,
      path: ctx.path,
      service,
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
 * The checks of the `partner`, `tenant` and `processor` audiences at a service behind the gateway, for its route
 * table: `routes.guard('partner', guards.partner)`.
 */
export function gatewayGuards(publicKey: KeyObject, service: string) {
  return {
    partner: requireIdentity(publicKey, 'partner', service),
    tenant: requireIdentity(publicKey, 'tenant', service),
    processor: requireIdentity(publicKey, 'processor', service),
    admin: requireIdentity(publicKey, 'admin', service),
  };
}
