import { providerAdminApiDocument, providerApiDocument, providerCourierApiDocument } from '@marketplace/contracts';
import { RouteTable } from '@marketplace/http';
import { validateOpenApi } from '@marketplace/testing';
import type { ProviderContext } from '../../usecases/context';
import { registerAdminRoutes } from '../admin-routes';
import { registerCourierRoutes } from '../courier-routes';
import { registerDriverRoutes } from '../driver-routes';
import { registerOperationsRoutes } from '../operations-routes';
import { registerPlatformRoutes } from '../platform-routes';

// The administrator document lists exactly the administrator routes served (accounts, delivery
// operations and drivers), the contract document exactly the /v1 routes served, and the courier
// document exactly the /courier/v1 routes.
function served(register: (routes: RouteTable, ctx: ProviderContext) => void): string[] {
  const routes = new RouteTable();
  register(routes, {} as ProviderContext); // routes only capture the context
  return routes.routes().map(({ method, path }) => `${method} ${path.replace(/:([A-Za-z]+)/g, '{$1}')}`);
}

function documented(document: Record<string, unknown>, prefix = ''): string[] {
  const paths = document.paths as Record<string, Record<string, unknown>>;
  return Object.entries(paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((k) => ['get', 'put', 'post', 'delete', 'patch'].includes(k))
      .map((m) => `${m.toUpperCase()} ${prefix}${path}`),
  );
}

it('documents exactly the administrator routes provider-delivery serves', () => {
  const routes = [
    ...served(registerAdminRoutes),
    ...served(registerOperationsRoutes),
    ...served(registerDriverRoutes),
  ].sort();
  expect(routes).toHaveLength(17);
  expect(documented(providerAdminApiDocument).sort()).toEqual(routes);
});

it('serves exactly the /v1 routes the contract document describes (and the document itself)', () => {
  const routes = served(registerPlatformRoutes).filter((r) => r !== 'GET /v1/openapi.json');
  expect(routes).toHaveLength(7);
  expect(documented(providerApiDocument, '/v1').sort()).toEqual(routes.sort());
});

it('serves exactly the courier routes its document describes', () => {
  const routes = served(registerCourierRoutes);
  expect(routes).toHaveLength(8);
  expect(documented(providerCourierApiDocument, '/courier/v1').sort()).toEqual(routes.sort());
});

it('the administrator and courier documents are valid OpenAPI 3.1', () => {
  expect(validateOpenApi(providerAdminApiDocument)).toMatchObject({ valid: true });
  expect(validateOpenApi(providerCourierApiDocument)).toMatchObject({ valid: true });
});

it('matches the rotate route before the key id route', () => {
  const routes = new RouteTable();
  registerAdminRoutes(routes, {} as ProviderContext);
  const matched = withOpenGuards(routes)
    .mount()
    .match('/admin/v1/platform-accounts/x/api-keys/rotate', 'POST').pathAndMethod;
  expect(matched.map((m) => m.path)).toEqual(['/admin/v1/platform-accounts/:accountId/api-keys/rotate']);
});

/** The table with every audience let through: only which route a path matches is looked at. */
function withOpenGuards(routes: RouteTable): RouteTable {
  for (const audience of ['partner', 'tenant', 'admin', 'platform', 'courier'] as const)
    routes.guard(audience, (_, next) => next());
  return routes;
}
