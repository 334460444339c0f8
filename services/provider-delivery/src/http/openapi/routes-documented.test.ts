import Router from '@koa/router';
import { providerAdminApiDocument, providerApiDocument } from '@marketplace/contracts';
import type { RequestState } from '@marketplace/http';
import { validateOpenApi } from '@marketplace/testing';
import type { ProviderContext } from '../../usecases/context';
import { registerAdminRoutes } from '../admin-routes';
import { registerOperationsRoutes } from '../operations-routes';
import { registerPlatformRoutes } from '../platform-routes';

// The administrator document lists exactly the administrator routes served (accounts and delivery
// operations), and the contract document exactly the /v1 routes served.
function served(register: (router: Router<RequestState>, ctx: ProviderContext) => void): string[] {
  const router = new Router<RequestState>();
  register(router, {} as ProviderContext); // routes only capture the context
  return router.stack.flatMap((layer) =>
    layer.methods
      .filter((m) => m !== 'HEAD')
      .map((method) => `${method} ${layer.path.toString().replace(/:([A-Za-z]+)/g, '{$1}')}`),
  );
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
  const routes = [...served(registerAdminRoutes), ...served(registerOperationsRoutes)].sort();
  expect(routes).toHaveLength(12);
  expect(documented(providerAdminApiDocument).sort()).toEqual(routes);
});

it('serves exactly the /v1 routes the contract document describes (and the document itself)', () => {
  const routes = served(registerPlatformRoutes).filter((r) => r !== 'GET /v1/openapi.json');
  expect(routes).toHaveLength(7);
  expect(documented(providerApiDocument, '/v1').sort()).toEqual(routes.sort());
});

it('the administrator document is valid OpenAPI 3.1', () => {
  expect(validateOpenApi(providerAdminApiDocument)).toMatchObject({ valid: true });
});

it('matches the rotate route before the key id route', () => {
  const router = new Router<RequestState>();
  registerAdminRoutes(router, {} as ProviderContext);
  const matched = router.match('/admin/v1/platform-accounts/x/api-keys/rotate', 'POST').pathAndMethod;
  expect(matched.map((m) => m.path)).toEqual(['/admin/v1/platform-accounts/:accountId/api-keys/rotate']);
});
