import type Router from '@koa/router';
import type { RequestState } from '@marketplace/http';
import { marketplaceApiDocument } from './openapi/marketplace-api';

/** The administrator and tenant APIs' description (the Partner API's is under its own prefix). */
export function registerOpenApiRoutes(router: Router<RequestState>): void {
  router.get('/api/marketplace/openapi.json', (c) => {
    c.set('Cache-Control', 'public, max-age=300');
    c.body = marketplaceApiDocument;
  });
}
