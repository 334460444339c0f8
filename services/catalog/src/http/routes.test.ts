import { routeLine } from '@marketplace/http';
import { declaredRoutes } from './routes';

// The route table of catalog, each route with its audience: the review surface of who may call what.
// A route added, removed or moved to another audience shows here, in the diff of this test.

it('declares exactly these routes, each with its audience', () => {
  expect(declaredRoutes().map(routeLine)).toEqual([
    'probe    GET    /healthz',
    'probe    GET    /readyz',
    'probe    GET    /metrics',
    'tenant   POST   /api/tenant/v1/catalog/tax-categories',
    'tenant   GET    /api/tenant/v1/catalog/tax-categories',
    'tenant   GET    /api/tenant/v1/catalog/tax-categories/:id',
    'tenant   PUT    /api/tenant/v1/catalog/tax-categories/:id',
    'tenant   DELETE /api/tenant/v1/catalog/tax-categories/:id',
    'tenant   POST   /api/tenant/v1/catalog/branches',
    'tenant   GET    /api/tenant/v1/catalog/branches',
    'tenant   GET    /api/tenant/v1/catalog/branches/:id',
    'tenant   PUT    /api/tenant/v1/catalog/branches/:id',
    'tenant   DELETE /api/tenant/v1/catalog/branches/:id',
    'tenant   POST   /api/tenant/v1/catalog/categories',
    'tenant   GET    /api/tenant/v1/catalog/categories',
    'tenant   GET    /api/tenant/v1/catalog/categories/:id',
    'tenant   PUT    /api/tenant/v1/catalog/categories/:id',
    'tenant   DELETE /api/tenant/v1/catalog/categories/:id',
    'tenant   POST   /api/tenant/v1/catalog/modifier-groups',
    'tenant   GET    /api/tenant/v1/catalog/modifier-groups',
    'tenant   GET    /api/tenant/v1/catalog/modifier-groups/:id',
    'tenant   PUT    /api/tenant/v1/catalog/modifier-groups/:id',
    'tenant   DELETE /api/tenant/v1/catalog/modifier-groups/:id',
    'tenant   POST   /api/tenant/v1/catalog/products',
    'tenant   GET    /api/tenant/v1/catalog/products',
    'tenant   GET    /api/tenant/v1/catalog/products/:id',
    'tenant   PUT    /api/tenant/v1/catalog/products/:id',
    'tenant   DELETE /api/tenant/v1/catalog/products/:id',
    'tenant   GET    /api/tenant/v1/catalog/branches/:id/availability',
    'tenant   PATCH  /api/tenant/v1/catalog/branches/:id/availability',
    'tenant   GET    /api/tenant/v1/catalog/openapi.json',
    'partner  GET    /api/partner/v1/catalog/branches',
    'partner  GET    /api/partner/v1/catalog/branches/:branchId/products',
    'partner  GET    /api/partner/v1/catalog/branches/:branchId/products/:productId',
  ]);
});
