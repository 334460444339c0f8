import type Router from '@koa/router';
import { requestBody, type RequestState } from '@marketplace/http';
import type { GatewayContext } from '../usecases/context';
import { listPublishedApps } from '../usecases/apps';
import { connectInstallation } from '../usecases/connect-installation';
import { findInstallation, installApp, listInstallations } from '../usecases/installations';
import {
  disconnectInstallation,
  rotateApiKey,
  rotateWebhookSecret,
  uninstallApp,
} from '../usecases/manage-credentials';
import { pathId } from './path-params';
import { requireBearer, tenantIdOf } from './bearer-auth';
import { validateInstallInput } from './schemas';
import { publishedAppView } from './views/apps';
import { connectResultView, credentialsResultView, installationView } from './views/installations';

export const TENANT_PREFIX = '/api/tenant/v1';

/** Restaurants: browse published apps, install (with consent), connect, rotate, disconnect, uninstall. */
export function registerTenantRoutes(router: Router<RequestState>, ctx: GatewayContext): void {
  const tenant = requireBearer(ctx.tokenSecret, 'tenant');
  const p = `${TENANT_PREFIX}/installations`;

  router.get(`${TENANT_PREFIX}/apps`, tenant, async (c) => {
    c.body = (await listPublishedApps(ctx)).map(publishedAppView);
  });
  router.post(p, tenant, async (c) => {
    c.status = 201;
    c.body = installationView(await installApp(ctx, tenantIdOf(c), validateInstallInput(requestBody(c))));
  });
  router.get(p, tenant, async (c) => {
    c.body = (await listInstallations(ctx, tenantIdOf(c))).map(installationView);
  });
  router.get(`${p}/:installationId`, tenant, async (c) => {
    c.body = installationView(await findInstallation(ctx, tenantIdOf(c), pathId(c.params.installationId)));
  });
  router.post(`${p}/:installationId/connect`, tenant, async (c) => {
    c.body = connectResultView(
      await connectInstallation(ctx, tenantIdOf(c), pathId(c.params.installationId), 'connect'),
    );
  });
  router.post(`${p}/:installationId/reconnect`, tenant, async (c) => {
    c.body = connectResultView(
      await connectInstallation(ctx, tenantIdOf(c), pathId(c.params.installationId), 'reconnect'),
    );
  });
  router.post(`${p}/:installationId/api-key/rotate`, tenant, async (c) => {
    c.body = credentialsResultView(await rotateApiKey(ctx, tenantIdOf(c), pathId(c.params.installationId)));
  });
  router.post(`${p}/:installationId/webhook-secret/rotate`, tenant, async (c) => {
    c.body = credentialsResultView(await rotateWebhookSecret(ctx, tenantIdOf(c), pathId(c.params.installationId)));
  });
  router.post(`${p}/:installationId/disconnect`, tenant, async (c) => {
    c.body = installationView(await disconnectInstallation(ctx, tenantIdOf(c), pathId(c.params.installationId)));
  });
  router.delete(`${p}/:installationId`, tenant, async (c) => {
    await uninstallApp(ctx, tenantIdOf(c), pathId(c.params.installationId));
    c.status = 204;
  });
}
