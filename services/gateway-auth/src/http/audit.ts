import { statusOf, toAppError, type RouteMiddleware } from '@marketplace/http';
import { AUDITED_METHODS, auditAction, auditTarget } from '../domain/audit';
import { isUuid } from '../domain/ids';
import { recordAuditEvent } from '../usecases/audit/record-audit-event';
import type { GatewayContext } from '../usecases/context';
import { bearerOf } from './bearer-auth';

/**
 * The audit log's middleware, in the admin and tenant guards after the token check: every POST,
 * PUT, PATCH and DELETE those routes answer (the gateway's own and the forwarded tenant routes)
 * writes one event after its handler, whatever the outcome (an error included): who (role, `sub`,
 * tenant, token id), the route pattern and the path's identifiers, the status, the time, the
 * client address, the request id. Never the body, a header or a secret. A failed write is logged
 * and counted, never the request's failure (see recordAuditEvent).
 */
export function auditMutations(gateway: GatewayContext): RouteMiddleware {
  return async (ctx, next) => {
    if (!AUDITED_METHODS.has(ctx.method)) {
      await next();
      return;
    }
    const at = gateway.now();
    let status = 500;
    try {
      await next();
      status = ctx.status;
    } catch (error) {
      status = statusOf(toAppError(error));
      throw error;
    } finally {
      const claims = bearerOf(ctx);
      if (claims) {
        const route = (ctx as unknown as { _matchedRoute?: string })._matchedRoute ?? '(unmatched)';
        const params = (ctx as unknown as { params?: Record<string, unknown> }).params ?? {};
        const pathTenant = typeof params.tenantId === 'string' && isUuid(params.tenantId) ? params.tenantId : null;
        await recordAuditEvent(gateway, {
          at,
          tenantId: claims.role === 'tenant' ? claims.tid : (pathTenant?.toLowerCase() ?? null),
          actor: {
            role: claims.role,
            sub: claims.sub,
            tenantId: claims.role === 'tenant' ? claims.tid : null,
            tokenId: claims.jti ?? null,
          },
          action: auditAction(ctx.method, route),
          method: ctx.method,
          route,
          target: auditTarget(params),
          status,
          ip: ctx.ip,
          requestId: ctx.state.requestId,
        });
      }
    }
  };
}
