import { validationError } from '@marketplace/errors';
import { queryId, requestBody, type RouteTable } from '@marketplace/http';
import type { GatewayContext } from '../usecases/context';
import { createApp } from '../usecases/apps/create-app';
import { getAppDetail } from '../usecases/apps/get-app-detail';
import { listApps } from '../usecases/apps/list-apps';
import { createContractVersion } from '../usecases/contract-versions/create-contract-version';
import { getContractVersion } from '../usecases/contract-versions/get-contract-version';
import { publishContractVersion } from '../usecases/contract-versions/publish-contract-version';
import { updateContractVersion } from '../usecases/contract-versions/update-contract-version';
import { auditEventTime } from '../domain/audit';
import { listAuditEvents } from '../usecases/audit/list-audit-events';
import { createTenant } from '../usecases/tenants/create-tenant';
import { getTenant } from '../usecases/tenants/get-tenant';
import { listTenants } from '../usecases/tenants/list-tenants';
import { listTenantTokens } from '../usecases/tenants/list-tenant-tokens';
import { mintTenantToken } from '../usecases/tenants/mint-tenant-token';
import { revokeTenantToken } from '../usecases/tenants/revoke-tenant-token';
import { adminSubOf } from './bearer-auth';
import { pathId, pathVersion } from './path-params';
import { appDetailView, appView, contractVersionView } from './views/apps';
import { auditEventView } from './views/audit';
import { tenantTokenRecordView, tenantTokenView, tenantView } from './views/tenants';
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

/**
 * The audit log's query: `tenantId` (one uuid), `before` (an event's id, a UUID v7: the last of the
 * previous page), `limit` (1 to 200, 50). Every problem at once, 400 naming each parameter.
 */
function auditQuery(query: Record<string, string | string[] | undefined>) {
  const errors: Record<string, string[]> = {};
  const limit = query.limit === undefined ? 50 : Number(query.limit);
  if (typeof query.limit === 'object' || !Number.isInteger(limit) || limit < 1 || limit > 200)
    errors.limit = ['must be an integer from 1 to 200'];
  let tenantId: string | undefined;
  try {
    tenantId = queryId(query, 'tenantId');
  } catch {
    errors.tenantId = ['must be one uuid'];
  }
  const before = query.before;
  if (before !== undefined && (typeof before !== 'string' || auditEventTime(before) === undefined))
    errors.before = ["must be one event's id"];
  if (Object.keys(errors).length > 0)
    throw validationError('request.invalid', 'The query is invalid; see errors.', errors);
  return { tenantId, before: typeof before === 'string' ? before.toLowerCase() : undefined, limit };
}

/** Platform administrators: tenants and their tokens, apps, contract versions, the audit log. */
export function registerAdminRoutes(routes: RouteTable, ctx: GatewayContext): void {
  const p = ADMIN_PREFIX;

  routes.post(`${p}/tenants`, 'admin', async (c) => {
    c.status = 201;
    c.body = tenantView(await createTenant(ctx, validateTenantInput(requestBody(c))));
  });
  routes.get(`${p}/tenants`, 'admin', async (c) => {
    c.body = (await listTenants(ctx, slugQuery(c.query.slug))).map(tenantView);
  });
  routes.get(`${p}/tenants/:tenantId`, 'admin', async (c) => {
    c.body = tenantView(await getTenant(ctx, pathId(c.params.tenantId)));
  });
  routes.post(`${p}/tenants/:tenantId/tokens`, 'admin', async (c) => {
    const tenantId = pathId(c.params.tenantId);
    const input = validateTokenRequest(requestBody(c) ?? {});
    c.status = 201;
    c.body = tenantTokenView(await mintTenantToken(ctx, tenantId, input, adminSubOf(c)));
  });
  routes.get(`${p}/tenants/:tenantId/tokens`, 'admin', async (c) => {
    c.body = (await listTenantTokens(ctx, pathId(c.params.tenantId))).map(tenantTokenRecordView);
  });
  routes.post(`${p}/tenants/:tenantId/tokens/:tokenId/revoke`, 'admin', async (c) => {
    const tenantId = pathId(c.params.tenantId);
    const tokenId = pathId(c.params.tokenId);
    c.body = tenantTokenRecordView(await revokeTenantToken(ctx, tenantId, tokenId, adminSubOf(c)));
  });
  routes.get(`${p}/audit-events`, 'admin', async (c) => {
    c.body = (await listAuditEvents(ctx, auditQuery(c.query))).map(auditEventView);
  });

  routes.post(`${p}/apps`, 'admin', async (c) => {
    c.status = 201;
    c.body = appView(await createApp(ctx, validateAppInput(requestBody(c))));
  });
  routes.get(`${p}/apps`, 'admin', async (c) => {
    c.body = (await listApps(ctx, slugQuery(c.query.slug))).map(appView);
  });
  routes.get(`${p}/apps/:appId`, 'admin', async (c) => {
    c.body = appDetailView(await getAppDetail(ctx, pathId(c.params.appId)));
  });
  routes.post(`${p}/apps/:appId/versions`, 'admin', async (c) => {
    const appId = pathId(c.params.appId);
    c.status = 201;
    c.body = contractVersionView(await createContractVersion(ctx, appId, validateContractVersionInput(requestBody(c))));
  });
  routes.get(`${p}/apps/:appId/versions/:version`, 'admin', async (c) => {
    c.body = contractVersionView(await getContractVersion(ctx, pathId(c.params.appId), pathVersion(c.params.version)));
  });
  routes.put(`${p}/apps/:appId/versions/:version`, 'admin', async (c) => {
    const appId = pathId(c.params.appId);
    const version = pathVersion(c.params.version);
    c.body = contractVersionView(
      await updateContractVersion(ctx, appId, version, validateContractVersionInput(requestBody(c))),
    );
  });
  routes.post(`${p}/apps/:appId/versions/:version/publish`, 'admin', async (c) => {
    c.body = contractVersionView(
      await publishContractVersion(ctx, pathId(c.params.appId), pathVersion(c.params.version)),
    );
  });
}
