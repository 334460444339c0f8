import { RouteTable } from '@marketplace/http';
import type { OrderingContext } from '../../usecases/context';
import { registerTenantRoutes } from '../tenant-routes';
import { tenantOrderingApiDocument } from '@marketplace/contracts';

// Every tenant route ordering serves is in its OpenAPI document, and the document describes no
// route that does not exist.
function servedOperations(): string[] {
  const routes = new RouteTable();
  registerTenantRoutes(routes, {} as OrderingContext); // routes only capture the context
  return routes.routes().map(({ method, path }) => `${method} ${path.replace(/:([A-Za-z]+)/g, '{$1}')}`);
}

function documentedOperations(): string[] {
  const paths = tenantOrderingApiDocument.paths as Record<string, Record<string, unknown>>;
  const methods = ['get', 'put', 'post', 'delete', 'patch'];
  return Object.entries(paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((k) => methods.includes(k))
      .map((m) => `${m.toUpperCase()} ${path}`),
  );
}

it('documents exactly the tenant routes ordering serves', () => {
  const served = servedOperations().sort();
  expect(served.length).toBe(20);
  expect(documentedOperations().sort()).toEqual(served);
});

it('matches the document route before the order id route', () => {
  const routes = new RouteTable();
  registerTenantRoutes(routes, {} as OrderingContext);
  const matched = withOpenGuards(routes).mount().match('/api/tenant/v1/orders/openapi.json', 'GET').pathAndMethod;
  expect(matched[0]?.path).toBe('/api/tenant/v1/orders/openapi.json');
});

/** The table with every audience let through: only which route a path matches is looked at. */
function withOpenGuards(routes: RouteTable): RouteTable {
  for (const audience of ['partner', 'tenant', 'admin', 'platform', 'courier'] as const)
    routes.guard(audience, (_, next) => next());
  return routes;
}
