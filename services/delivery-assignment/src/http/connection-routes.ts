import type { RouterContext } from '@koa/router';
import { tenantProviderConnectionsApiDocument } from '@marketplace/contracts';
import { identityOf } from '@marketplace/identity';
import { pathId, requestBody, type RequestState, type RouteTable } from '@marketplace/http';
import { addOfferedConnection } from '../usecases/connections/add-offered-connection';
import { certifyConnection } from '../usecases/connections/certify-connection';
import { getConnection } from '../usecases/connections/get-connection';
import { grantCapability } from '../usecases/connections/grant-capability';
import { listConnections } from '../usecases/connections/list-connections';
import { readScorecard } from '../usecases/connections/read-scorecard';
import { registerConnection } from '../usecases/connections/register-connection';
import { replaceConnectionCredentials } from '../usecases/connections/replace-connection-credentials';
import type { DeliveryContext } from '../usecases/context';
import { validateCapabilityGrant, validateCertificate, validateConnection, validateCredentials } from './schemas';
import { connectionView } from './views/connections';

const TENANT = '/api/tenant/v1/provider-connections';
const ADMIN = '/api/admin/v1/provider-connections';
const ADMINISTRATOR = { platform: true } as const;

const tenantOf = (c: RouterContext<RequestState>) => ({ tenantId: identityOf(c, 'tenant').tenantId });

/**
 * Provider connections: a tenant registers its own, adds an offered one, reads them and submits
 * conformance certificates (the gateway forwards `/api/tenant/v1/provider-connections`); the
 * administrator offers connections to every tenant and decides capabilities with a recorded
 * reason (the gateway forwards `/api/admin/v1/provider-connections`).
 */
export function registerConnectionRoutes(routes: RouteTable, ctx: DeliveryContext): void {
  registerTenantConnectionRoutes(routes, ctx);
  registerAdminConnectionRoutes(routes, ctx);
}

function registerTenantConnectionRoutes(routes: RouteTable, ctx: DeliveryContext): void {
  routes.get(`${TENANT}/openapi.json`, 'tenant', (c) => {
    c.set('Cache-Control', 'public, max-age=300');
    c.body = tenantProviderConnectionsApiDocument;
  });
  routes.post(TENANT, 'tenant', async (c) => {
    const { connection, installation } = await registerConnection(ctx, tenantOf(c), validateConnection(requestBody(c)));
    c.status = 201;
    c.body = connectionView(connection, installation);
  });
  routes.get(TENANT, 'tenant', async (c) => {
    const found = await listConnections(ctx, tenantOf(c));
    c.body = found.map(({ connection, installation }) => connectionView(connection, installation));
  });
  routes.get(`${TENANT}/:connectionId`, 'tenant', async (c) => {
    const { connection, installation } = await getConnection(ctx, tenantOf(c), pathId(c.params.connectionId));
    c.body = connectionView(connection, installation);
  });
  routes.get(`${TENANT}/:connectionId/scorecard`, 'tenant', async (c) => {
    c.body = await readScorecard(ctx, tenantOf(c), pathId(c.params.connectionId));
  });
  routes.post(`${TENANT}/:connectionId/install`, 'tenant', async (c) => {
    const added = await addOfferedConnection(ctx, tenantOf(c), pathId(c.params.connectionId));
    c.status = added.created ? 201 : 200;
    c.body = connectionView(added.connection, added.installation);
  });
  routes.put(`${TENANT}/:connectionId/credentials`, 'tenant', async (c) => {
    const tenant = tenantOf(c);
    const connectionId = pathId(c.params.connectionId);
    const connection = await replaceConnectionCredentials(
      ctx,
      tenant,
      connectionId,
      validateCredentials(requestBody(c)),
    );
    const { installation } = await getConnection(ctx, tenant, connection._id);
    c.body = connectionView(connection, installation);
  });
  routes.post(`${TENANT}/:connectionId/certifications`, 'tenant', async (c) => {
    const tenant = tenantOf(c);
    const connectionId = pathId(c.params.connectionId);
    const connection = await certifyConnection(ctx, tenant, connectionId, validateCertificate(requestBody(c)));
    const { installation } = await getConnection(ctx, tenant, connection._id);
    c.body = connectionView(connection, installation);
  });
}

function registerAdminConnectionRoutes(routes: RouteTable, ctx: DeliveryContext): void {
  routes.post(ADMIN, 'admin', async (c) => {
    const { connection } = await registerConnection(ctx, ADMINISTRATOR, validateConnection(requestBody(c)));
    c.status = 201;
    c.body = connectionView(connection, null);
  });
  routes.get(ADMIN, 'admin', async (c) => {
    const found = await listConnections(ctx, ADMINISTRATOR);
    c.body = found.map(({ connection }) => connectionView(connection, null));
  });
  routes.get(`${ADMIN}/:connectionId/scorecard`, 'admin', async (c) => {
    c.body = await readScorecard(ctx, ADMINISTRATOR, pathId(c.params.connectionId));
  });
  routes.put(`${ADMIN}/:connectionId/credentials`, 'admin', async (c) => {
    const connectionId = pathId(c.params.connectionId);
    const credentials = validateCredentials(requestBody(c));
    c.body = connectionView(await replaceConnectionCredentials(ctx, ADMINISTRATOR, connectionId, credentials), null);
  });
  routes.post(`${ADMIN}/:connectionId/certifications`, 'admin', async (c) => {
    const connection = await certifyConnection(
      ctx,
      ADMINISTRATOR,
      pathId(c.params.connectionId),
      validateCertificate(requestBody(c)),
    );
    c.body = connectionView(connection, null);
  });
  routes.post(`${ADMIN}/:connectionId/capabilities`, 'admin', async (c) => {
    const subject = identityOf(c, 'admin').subject;
    const connection = await grantCapability(
      ctx,
      pathId(c.params.connectionId),
      validateCapabilityGrant(requestBody(c)),
      subject,
    );
    c.body = connectionView(connection, null);
  });
}
