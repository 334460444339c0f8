import { tenantDeliveriesApiDocument } from '@marketplace/contracts';
import { RouteTable } from '@marketplace/http';
import { componentValidator, tenantDocumentOperationIds } from '@marketplace/testing';
import type { DeliveryContext } from '../../usecases/context';
import { registerTenantRoutes } from '../tenant-routes';

// Every tenant route delivery-assignment serves is in its OpenAPI document, and the document
// describes no route that does not exist.
function servedOperations(): string[] {
  const routes = new RouteTable();
  registerTenantRoutes(routes, {} as DeliveryContext); // routes only capture the context
  return routes.routes().map(({ method, path }) => `${method} ${path.replace(/:([A-Za-z]+)/g, '{$1}')}`);
}

function documentedOperations(): string[] {
  const paths = tenantDeliveriesApiDocument.paths as Record<string, Record<string, unknown>>;
  return Object.entries(paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((k) => ['get', 'put', 'post', 'delete', 'patch'].includes(k))
      .map((m) => `${m.toUpperCase()} ${path}`),
  );
}

it('documents exactly the tenant routes delivery-assignment serves', () => {
  const served = servedOperations().sort();
  expect(served).toHaveLength(3);
  expect(documentedOperations().sort()).toEqual(served);
  expect(tenantDocumentOperationIds(tenantDeliveriesApiDocument)).toHaveLength(3);
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
