import { API_KEY_ROTATION_OVERLAP } from '@marketplace/contracts';
import { requestBody, type RouteTable } from '@marketplace/http';
import type { GatewayContext } from '../usecases/context';
import { listPublishedApps } from '../usecases/apps/list-published-apps';
import { connectInstallation } from '../usecases/installations/connect-installation';
import { disconnectInstallation } from '../usecases/installations/disconnect-installation';
import { findInstallation } from '../usecases/installations/find-installation';
import { installApp } from '../usecases/installations/install-app';
import { listInstallations } from '../usecases/installations/list-installations';
import { rotateApiKey } from '../usecases/installations/rotate-api-key';
import { rotateWebhookSecret } from '../usecases/installations/rotate-webhook-secret';
import { uninstallApp } from '../usecases/installations/uninstall-app';
import { pathId } from './path-params';
import { tenantIdOf } from './bearer-auth';
import { validateApiKeyRotateRequest, validateInstallInput } from './schemas';
import { publishedAppView } from './views/apps';
import { apiKeyRotationView, connectResultView, credentialsResultView, installationView } from './views/installations';

export const TENANT_PREFIX = '/api/tenant/v1';

/** Restaurants: browse published apps, install (with consent), connect, rotate, disconnect, uninstall. */
export function registerTenantRoutes(routes: RouteTable, ctx: GatewayContext): void {
  const p = `${TENANT_PREFIX}/installations`;

  routes.get(`${TENANT_PREFIX}/apps`, 'tenant', async (c) => {
    c.body = (await listPublishedApps(ctx)).map(publishedAppView);
  });
  routes.post(p, 'tenant', async (c) => {
    c.status = 201;
    c.body = installationView(await installApp(ctx, tenantIdOf(c), validateInstallInput(requestBody(c))));
  });
  routes.get(p, 'tenant', async (c) => {
    c.body = (await listInstallations(ctx, tenantIdOf(c))).map(installationView);
  });
  routes.get(`${p}/:installationId`, 'tenant', async (c) => {
    c.body = installationView(await findInstallation(ctx, tenantIdOf(c), pathId(c.params.installationId)));
  });
  routes.post(`${p}/:installationId/connect`, 'tenant', async (c) => {
    c.body = connectResultView(
      await connectInstallation(ctx, tenantIdOf(c), pathId(c.params.installationId), 'connect'),
    );
  });
  routes.post(`${p}/:installationId/reconnect`, 'tenant', async (c) => {
    c.body = connectResultView(
      await connectInstallation(ctx, tenantIdOf(c), pathId(c.params.installationId), 'reconnect'),
    );
  });
  routes.post(`${p}/:installationId/api-key/rotate`, 'tenant', async (c) => {
    const installationId = pathId(c.params.installationId);
    const { overlapSeconds } = validateApiKeyRotateRequest(requestBody(c) ?? {});
    c.body = apiKeyRotationView(
      await rotateApiKey(ctx, tenantIdOf(c), installationId, overlapSeconds ?? API_KEY_ROTATION_OVERLAP.defaultSeconds),
    );
  });
  routes.post(`${p}/:installationId/webhook-secret/rotate`, 'tenant', async (c) => {
    c.body = credentialsResultView(await rotateWebhookSecret(ctx, tenantIdOf(c), pathId(c.params.installationId)));
  });
  routes.post(`${p}/:installationId/disconnect`, 'tenant', async (c) => {
    c.body = installationView(await disconnectInstallation(ctx, tenantIdOf(c), pathId(c.params.installationId)));
  });
  routes.delete(`${p}/:installationId`, 'tenant', async (c) => {
    await uninstallApp(ctx, tenantIdOf(c), pathId(c.params.installationId));
    c.status = 204;
  });
}
