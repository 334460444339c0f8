import { RouteTable } from '@marketplace/http';
import type { GatewayContext } from '../../usecases/context';
import { registerAdminRoutes } from '../admin-routes';
import { registerOAuthRoutes } from '../oauth-routes';
import { registerPaymentProcessorRoutes } from '../payment-processor-routes';
import { registerTenantRoutes } from '../tenant-routes';
import { marketplaceApiDocument } from './marketplace-api';

// Every administrator, tenant, payment-processor and OAuth route the gateway serves is in the marketplace OpenAPI
// document, and the document describes no route that does not exist.
function servedOperations(): string[] {
  const routes = new RouteTable();
  const context = { tokenSecret: Buffer.alloc(32) } as unknown as GatewayContext; // routes only capture it
  registerAdminRoutes(routes, context);
  registerTenantRoutes(routes, context);
  registerOAuthRoutes(routes, context);
  registerPaymentProcessorRoutes(routes, context, {} as never);
  return routes.routes().map(({ method, path }) => `${method} ${path.replace(/:([A-Za-z]+)/g, '{$1}')}`);
}

function documentedOperations(): string[] {
  const paths = marketplaceApiDocument.paths as Record<string, Record<string, unknown>>;
  const methods = ['get', 'put', 'post', 'delete', 'patch'];
  return Object.entries(paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((k) => methods.includes(k))
      .map((m) => `${m.toUpperCase()} ${path}`),
  );
}

it('documents exactly the routes the gateway serves', () => {
  const served = servedOperations().sort();
  expect(served.length).toBeGreaterThan(15);
  expect(documentedOperations().sort()).toEqual(served);
});
