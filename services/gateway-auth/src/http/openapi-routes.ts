import type { RouteTable } from '@marketplace/http';
import { marketplaceApiDocument } from './openapi/marketplace-api';

/** The administrator and tenant APIs' description (the Partner API's is under its own prefix). */
export function registerOpenApiRoutes(routes: RouteTable): void {
  routes.get('/api/marketplace/openapi.json', 'public', (c) => {
    c.set('Cache-Control', 'public, max-age=300');
    c.body = marketplaceApiDocument;
  });
}
