import { tenantDeliveriesApiDocument, tenantProviderConnectionsApiDocument } from '@marketplace/contracts';
import { RouteTable } from '@marketplace/http';
import { componentValidator, tenantDocumentOperationIds } from '@marketplace/testing';
import type { DeliveryContext } from '../../usecases/context';
import { declaredRoutes } from '../routes';
import { registerTenantRoutes } from '../tenant-routes';

// Every route delivery-assignment serves but the Partner API's (in the gateway's Partner document)
// and the probes is in one of its two OpenAPI documents, and the documents describe no route that
// does not exist: the service's own route table is the inventory.
function servedOperations(): string[] {
  return declaredRoutes()
    .filter(({ audience }) => audience !== 'partner' && audience !== 'probe')
    .map(({ method, path }) => `${method} ${path.replace(/:([A-Za-z]+)/g, '{$1}')}`);
}

function documentedOperations(document: Record<string, unknown>): string[] {
  const paths = document.paths as Record<string, Record<string, unknown>>;
  return Object.entries(paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((k) => ['get', 'put', 'post', 'delete', 'patch'].includes(k))
      .map((m) => `${m.toUpperCase()} ${path}`),
  );
}

it('documents exactly the tenant, administrator and callback routes delivery-assignment serves', () => {
  const served = servedOperations().sort();
  expect(served).toHaveLength(22);
  const documented = [tenantDeliveriesApiDocument, tenantProviderConnectionsApiDocument].flatMap(documentedOperations);
  expect(documented.sort()).toEqual(served);
  expect(tenantDocumentOperationIds(tenantDeliveriesApiDocument)).toHaveLength(3);
  // Each operation names the credential of its audience: a tenant token, an administrator token,
  // or none (the providers' callbacks, authenticated by the URL's token and the signature).
  const paths = tenantProviderConnectionsApiDocument.paths as Record<string, Record<string, Record<string, unknown>>>;
  const ids = new Set<string>();
  for (const [path, item] of Object.entries(paths))
    for (const operation of Object.values(item)) {
      ids.add(String(operation.operationId));
      const expected = path.startsWith('/api/admin/')
        ? [{ adminToken: [] }]
        : path.startsWith('/api/tenant/')
          ? [{ tenantToken: [] }]
          : [];
      expect({ path, security: operation.security }).toEqual({ path, security: expected });
      expect(Object.keys(operation.responses as object)).toContain(expected.length > 0 ? '401' : '404');
    }
  expect(ids.size).toBe(19);
});

it('matches the document route before the order id route', () => {
  const routes = new RouteTable();
  registerTenantRoutes(routes, {} as DeliveryContext);
  const matched = withOpenGuards(routes).mount().match('/api/tenant/v1/deliveries/openapi.json', 'GET').pathAndMethod;
  expect(matched[0]?.path).toBe('/api/tenant/v1/deliveries/openapi.json');
});

it('the tenant view schema accepts an assignment as the service answers it', () => {
  const validate = componentValidator(tenantDeliveriesApiDocument, 'TenantDeliveryAssignment');
  const pickup = { name: 'Mitte', address: 'Torstrasse 1', latitude: 52.5, longitude: 13.4, externalLocationId: null };
  const at = '2026-11-24T10:00:00.000Z';
  expect(
    validate({
      assignmentId: '6f1c2b1e-8a47-4f0e-9a53-1f0f7d1a2b3c',
      orderId: '7f1c2b1e-8a47-4f0e-9a53-1f0f7d1a2b3c',
      appInstallationId: '8f1c2b1e-8a47-4f0e-9a53-1f0f7d1a2b3c',
      status: 9,
      statusName: 'Superseded',
      assignedAtUtc: at,
      respondedAtUtc: null,
      endedAtUtc: at,
      driverName: null,
      driverPhone: null,
      etaUtc: null,
      trackingUrl: null,
      pickup,
    }),
  ).toBe(true);
});

/** The table with every audience let through: only which route a path matches is looked at. */
function withOpenGuards(routes: RouteTable): RouteTable {
  for (const audience of ['partner', 'tenant', 'admin', 'platform', 'courier'] as const)
    routes.guard(audience, (_, next) => next());
  return routes;
}
