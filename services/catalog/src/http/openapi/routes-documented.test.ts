import { RouteTable } from '@marketplace/http';
import type { CatalogContext } from '../../usecases/context';
import { registerTenantRoutes } from '../tenant-routes';
import { tenantCatalogApiDocument } from '@marketplace/contracts';

// Every tenant route the catalog serves is in its OpenAPI document, and the document describes no
// route that does not exist.
function servedOperations(): string[] {
  const routes = new RouteTable();
  registerTenantRoutes(routes, {} as CatalogContext); // routes only capture the context
  return routes.routes().map(({ method, path }) => `${method} ${path.replace(/:([A-Za-z]+)/g, '{$1}')}`);
}

function documentedOperations(): string[] {
  const paths = tenantCatalogApiDocument.paths as Record<string, Record<string, unknown>>;
  const methods = ['get', 'put', 'post', 'delete', 'patch'];
  return Object.entries(paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((k) => methods.includes(k))
      .map((m) => `${m.toUpperCase()} ${path}`),
  );
}

it('documents exactly the tenant routes the catalog serves', () => {
  const served = servedOperations().sort();
  expect(served.length).toBe(28);
  // Path parameter names may differ between router and document; compare shapes.
  const shape = (op: string) => op.replace(/\{[A-Za-z]+\}/g, '{}');
  expect(documentedOperations().map(shape).sort()).toEqual(served.map(shape).sort());
});
