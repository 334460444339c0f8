import type Router from '@koa/router';
import { validationError } from '@marketplace/errors';
import { requestBody, type RequestState } from '@marketplace/http';
import type { GatewayContext } from '../usecases/context';
import { createApp, getAppDetail, listApps } from '../usecases/apps';
import {
  createContractVersion,
  getContractVersion,
  publishContractVersion,
  updateContractVersion,
} from '../usecases/contract-versions';
import { createTenant, getTenant, listTenants, mintTenantToken } from '../usecases/tenants';
import { requireBearer } from './bearer-auth';
import { pathId, pathVersion } from './path-params';
import { appDetailView, appView, contractVersionView } from './views/apps';
import { tenantTokenView, tenantView } from './views/tenants';
import { validateAppInput, validateContractVersionInput, validateTenantInput, validateTokenRequest } from './schemas';

export const ADMIN_PREFIX = '/api/admin/v1';

/** The optional `slug` filter: absent means all; anything but one valid slug is a 400, never "all". */
function slugQuery(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && /^[a-z0-9][a-z0-9-]{1,62}$/.test(value)) return value;
  throw validationError('request.invalid', 'The request is invalid.', {
    slug: ['must be one slug (lower-case letters, digits and dashes)'],
  });
}

/** Platform administrators: tenants, apps, contract versions. */
export function registerAdminRoutes(router: Router<RequestState>, ctx: GatewayContext): void {
  const admin = requireBearer(ctx.tokenSecret, 'admin');
  const p = ADMIN_PREFIX;

  router.post(`${p}/tenants`, admin, async (c) => {
    c.status = 201;
    c.body = tenantView(await createTenant(ctx, validateTenantInput(requestBody(c))));
  });
  router.get(`${p}/tenants`, admin, async (c) => {
    c.body = (await listTenants(ctx, slugQuery(c.query.slug))).map(tenantView);
  });
  router.get(`${p}/tenants/:tenantId`, admin, async (c) => {
    c.body = tenantView(await getTenant(ctx, pathId(c.params.tenantId)));
  });
  router.post(`${p}/tenants/:tenantId/tokens`, admin, async (c) => {
    const input = validateTokenRequest(requestBody(c) ?? {});
    c.status = 201;
    c.body = tenantTokenView(
      await mintTenantToken(ctx, pathId(c.params.tenantId), input.expiresInSeconds ?? 30 * 24 * 3600),
    );
  });

  router.post(`${p}/apps`, admin, async (c) => {
    c.status = 201;
    c.body = appView(await createApp(ctx, validateAppInput(requestBody(c))));
  });
  router.get(`${p}/apps`, admin, async (c) => {
    c.body = (await listApps(ctx, slugQuery(c.query.slug))).map(appView);
  });
  router.get(`${p}/apps/:appId`, admin, async (c) => {
    c.body = appDetailView(await getAppDetail(ctx, pathId(c.params.appId)));
  });
  router.post(`${p}/apps/:appId/versions`, admin, async (c) => {
    const appId = pathId(c.params.appId);
    c.status = 201;
    c.body = contractVersionView(await createContractVersion(ctx, appId, validateContractVersionInput(requestBody(c))));
  });
  router.get(`${p}/apps/:appId/versions/:version`, admin, async (c) => {
    c.body = contractVersionView(await getContractVersion(ctx, pathId(c.params.appId), pathVersion(c.params.version)));
  });
  router.put(`${p}/apps/:appId/versions/:version`, admin, async (c) => {
    const appId = pathId(c.params.appId);
    const version = pathVersion(c.params.version);
    c.body = contractVersionView(
      await updateContractVersion(ctx, appId, version, validateContractVersionInput(requestBody(c))),
    );
  });
  router.post(`${p}/apps/:appId/versions/:version/publish`, admin, async (c) => {
    c.body = contractVersionView(
      await publishContractVersion(ctx, pathId(c.params.appId), pathVersion(c.params.version)),
    );
  });
}
