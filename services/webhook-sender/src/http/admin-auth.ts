import type Koa from 'koa';
import type { RequestState } from '@marketplace/http';
import { unauthenticated, verifyBearerToken } from '@marketplace/identity';

/** Every route of the administrator API is under this prefix. */
export const ADMIN_PREFIX = '/admin/v1/';

/**
 * Runs before any body is read. Under `/admin/v1/`: `Authorization: Bearer <JWT>`, HS256 under
 * PROVIDER_ADMIN_TOKEN_SECRET (the key of provider-delivery's administrator API: the same
 * operators), role admin; anything else is 401 `auth.unauthenticated` with one generic message,
 * whatever was wrong (missing, malformed, expired, another key, another role). The answers carry
 * `Cache-Control: no-store`: they hold personal data of the events (a driver's name and phone).
 * Other paths pass (the tenant API has its own guard).
 */
export function guardAdminRoutes(adminTokenSecret: Buffer, now: () => Date): Koa.Middleware<RequestState> {
  return async (c, next) => {
    if (c.path.startsWith(ADMIN_PREFIX)) {
      c.set('Cache-Control', 'no-store');
      const match = /^Bearer ([A-Za-z0-9_.-]+)$/i.exec(c.get('authorization'));
      const claims = match ? verifyBearerToken(adminTokenSecret, match[1]!, now()) : undefined;
      if (claims?.role !== 'admin') throw unauthenticated();
    }
    await next();
  };
}
