import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import type { RequestState } from '@marketplace/http';
import { unauthenticated } from '@marketplace/identity';
import { tenantProfile } from '../usecases/credentials';
import { TENANT_FORWARDS } from '../domain/tenant-forwards';
import type { GatewayContext } from '../usecases/context';
import type { ForwardRouting } from '../usecases/forward-request';
import { requireBearer, tenantIdOf } from './bearer-auth';
import { forwardSigned, sendUpstream } from './forward';
import { TENANT_PREFIX } from './tenant-routes';

/**
 * Tenant API parts owned by other services (catalog, webhooks, ...): the bearer token is checked
 * here, the request goes on unchanged with a signed tenant identity, and the owner's answer comes
 * back unchanged.
 */
export function registerTenantForwards(
  router: Router<RequestState>,
  ctx: GatewayContext,
  routing: ForwardRouting,
): void {
  const tenant = requireBearer(ctx.tokenSecret, 'tenant');
  for (const { prefix, owner } of TENANT_FORWARDS) {
    const handler = async (c: RouterContext<RequestState>) => {
      const tenantId = tenantIdOf(c);
      const tenant = await tenantProfile(ctx, tenantId);
      if (!tenant) throw unauthenticated(); // a token outliving its tenant
      const identity = { kind: 'tenant' as const, tenantId, tenant };
      sendUpstream(
        c,
        c.method === 'GET'
          ? await forwardSigned(routing, owner, c, identity, true)
          : await forwardSigned(routing, owner, c, identity),
      );
    };
    router.all(`${TENANT_PREFIX}${prefix}`, tenant, handler);
    router.all(`${TENANT_PREFIX}${prefix}/{*rest}`, tenant, handler);
  }
}
