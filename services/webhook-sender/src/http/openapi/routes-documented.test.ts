import { RouteTable } from '@marketplace/http';
import type { WebhookContext } from '../../usecases/context';
import { registerAdminRoutes } from '../admin-routes';
import { registerRoutes } from '../routes';
import { providerCallbacksAdminApiDocument, tenantWebhooksApiDocument } from '@marketplace/contracts';

// Every route the webhook sender serves is in its OpenAPI document (the tenant API's, the
// administrator API's), and each document describes no route that does not exist.
function served(register: (routes: RouteTable, ctx: WebhookContext) => void): string[] {
  const routes = new RouteTable();
  register(routes, {} as WebhookContext); // routes only capture the context
  return routes.routes().map(({ method, path }) => `${method} ${path.replace(/:([A-Za-z]+)/g, '{$1}')}`);
}

function documented(document: Record<string, unknown>): string[] {
  const paths = document.paths as Record<string, Record<string, unknown>>;
  return Object.entries(paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((k) => ['get', 'put', 'post', 'delete', 'patch'].includes(k))
      .map((m) => `${m.toUpperCase()} ${path}`),
  );
}

it('documents exactly the tenant routes the webhook sender serves', () => {
  const routes = served(registerRoutes);
  expect(routes).toHaveLength(5);
  expect(documented(tenantWebhooksApiDocument).sort()).toEqual(routes.sort());
});

it('documents exactly the administrator routes of provider callbacks', () => {
  const routes = served(registerAdminRoutes);
  expect(routes).toHaveLength(4);
  expect(documented(providerCallbacksAdminApiDocument).sort()).toEqual(routes.sort());
});

it('serves the administrator document at its path, not as a callback id', () => {
  const routes = new RouteTable();
  registerAdminRoutes(routes, {} as WebhookContext);
  const matched = withOpenGuards(routes)
    .mount()
    .match('/admin/v1/provider-callbacks/openapi.json', 'GET').pathAndMethod;
  expect(matched[0]!.path).toBe('/admin/v1/provider-callbacks/openapi.json');
});

/** The table with every audience let through: only which route a path matches is looked at. */
function withOpenGuards(routes: RouteTable): RouteTable {
  for (const audience of ['partner', 'tenant', 'admin', 'platform', 'courier'] as const)
    routes.guard(audience, (_, next) => next());
  return routes;
}
