import Router from '@koa/router';
import type { RequestState } from '@marketplace/http';
import type { WebhookContext } from '../../usecases/context';
import { registerRoutes } from '../routes';
import { tenantWebhooksApiDocument } from '@marketplace/contracts';

// Every route the webhook sender serves is in its OpenAPI document, and the document describes no
// route that does not exist.
it('documents exactly the routes the webhook sender serves', () => {
  const router = new Router<RequestState>();
  registerRoutes(router, {} as WebhookContext); // routes only capture the context
  const served = router.stack.flatMap((layer) =>
    layer.methods
      .filter((m) => m !== 'HEAD')
      .map((method) => `${method} ${layer.path.toString().replace(/:([A-Za-z]+)/g, '{$1}')}`),
  );
  const paths = tenantWebhooksApiDocument.paths as Record<string, Record<string, unknown>>;
  const documented = Object.entries(paths).flatMap(([path, item]) =>
    Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`),
  );
  expect(served).toHaveLength(5);
  expect(documented.sort()).toEqual(served.sort());
});
