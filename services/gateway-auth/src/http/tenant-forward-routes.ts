import type { RouterContext } from '@koa/router';
import type { RequestState, RouteTable } from '@marketplace/http';
import { notFound } from '@marketplace/errors';
import { unauthenticated } from '@marketplace/identity';
import { findTenantProfile } from '../usecases/credentials/find-tenant-profile';
import { ADMIN_FORWARDS, TENANT_FORWARDS } from '../domain/tenant-forwards';
import { ADMIN_PREFIX } from './admin-routes';
import type { GatewayContext } from '../usecases/context';
import type { ForwardRouting } from '../usecases/forward-to-owner';
import { adminSubOf, tenantIdOf } from './bearer-auth';
import { forwardSigned, sendUpstream } from './forward';
import { TENANT_PREFIX } from './tenant-routes';

// OPTIONS too: the owner knows which methods a path has, and answers with its Allow header.
/** A path segment the gateway forwards: unreserved characters only (RFC 3986), as every owner route has. */
const FORWARDED_SEGMENT = /^[A-Za-z0-9._~-]+$/;

const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'options'] as const;

/**
 * The upstream path of a forwarded tenant request: the owner's prefix and the matched tail's
 * segments, each encoded again (the router decoded them). The HTTP layer has already refused dot,
 * empty and encoded-slash segments, so every segment here is one segment upstream too.
 */
function tenantUpstreamPath(prefix: string, rest: string | undefined): string {
  const segments = rest === undefined ? [] : rest.split('/');
  // The owners' paths are ids and words: a segment of anything else (`;param`, a space, a quote)
  // names nothing there, and is not forwarded.
  if (!segments.every((segment) => FORWARDED_SEGMENT.test(segment))) throw notFound();
  return segments.length === 0 ? prefix : `${prefix}/${segments.map(encodeURIComponent).join('/')}`;
}

/**
 * Tenant API parts owned by other services (catalog, webhooks, ...): the bearer token is checked
 * by the tenant guard, the request goes on with a signed tenant identity to the path built from the
 * matched route, and the owner's answer comes back unchanged.
 */
export function registerTenantForwards(routes: RouteTable, ctx: GatewayContext, routing: ForwardRouting): void {
  for (const { prefix, owner } of TENANT_FORWARDS) {
    const base = `${TENANT_PREFIX}${prefix}`;
    const handler = async (c: RouterContext<RequestState>) => {
      const tenantId = tenantIdOf(c);
      const tenant = await findTenantProfile(ctx, tenantId);
      if (!tenant) throw unauthenticated(); // a token outliving its tenant
      const identity = { kind: 'tenant' as const, tenantId, tenant };
      const path = tenantUpstreamPath(base, c.params.rest);
      sendUpstream(
        c,
        c.method === 'GET'
          ? await forwardSigned(routing, owner, c, identity, path, true)
          : await forwardSigned(routing, owner, c, identity, path),
      );
    };
    for (const method of METHODS) {
      routes[method](base, 'tenant', handler);
      routes[method](`${base}/*rest`, 'tenant', handler);
    }
  }
}

/**
 * Administrator API parts owned by other services: the administrator token is checked by the
 * admin guard, the request goes on with a signed administrator identity, as the tenant's do.
 */
export function registerAdminForwards(routes: RouteTable, routing: ForwardRouting): void {
  for (const { prefix, owner } of ADMIN_FORWARDS) {
    const base = `${ADMIN_PREFIX}${prefix}`;
    const handler = async (c: RouterContext<RequestState>) => {
      const identity = { kind: 'admin' as const, subject: adminSubOf(c) };
      const path = tenantUpstreamPath(base, c.params.rest);
      sendUpstream(
        c,
        c.method === 'GET'
          ? await forwardSigned(routing, owner, c, identity, path, true)
          : await forwardSigned(routing, owner, c, identity, path),
      );
    };
    for (const method of METHODS) {
      routes[method](base, 'admin', handler);
      routes[method](`${base}/*rest`, 'admin', handler);
    }
  }
}
