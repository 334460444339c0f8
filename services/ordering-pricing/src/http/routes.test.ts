import { routeLine } from '@marketplace/http';
import { declaredRoutes } from './routes';

// The route table of ordering-pricing, each route with its audience: the review surface of who may call what.
// A route added, removed or moved to another audience shows here, in the diff of this test.

it('declares exactly these routes, each with its audience', () => {
  expect(declaredRoutes().map(routeLine)).toEqual([
    'probe    GET    /healthz',
    'probe    GET    /readyz',
    'probe    GET    /metrics',
    'partner  POST   /api/partner/v1/orders',
    'partner  GET    /api/partner/v1/orders/:orderId',
    'partner  POST   /api/partner/v1/orders/:orderId/cancel',
    'tenant   POST   /api/tenant/v1/delivery-zones',
    'tenant   GET    /api/tenant/v1/delivery-zones',
    'tenant   GET    /api/tenant/v1/delivery-zones/:id',
    'tenant   PUT    /api/tenant/v1/delivery-zones/:id',
    'tenant   DELETE /api/tenant/v1/delivery-zones/:id',
    'tenant   POST   /api/tenant/v1/promotions',
    'tenant   GET    /api/tenant/v1/promotions',
    'tenant   GET    /api/tenant/v1/promotions/:id',
    'tenant   PUT    /api/tenant/v1/promotions/:id',
    'tenant   DELETE /api/tenant/v1/promotions/:id',
    'tenant   GET    /api/tenant/v1/service-fee',
    'tenant   PUT    /api/tenant/v1/service-fee',
    'tenant   GET    /api/tenant/v1/orders',
    'tenant   GET    /api/tenant/v1/orders/openapi.json',
    'tenant   GET    /api/tenant/v1/orders/:id',
    'tenant   POST   /api/tenant/v1/orders/:id/accept',
    'tenant   POST   /api/tenant/v1/orders/:id/reject',
    'tenant   POST   /api/tenant/v1/orders/:id/complete',
    'tenant   POST   /api/tenant/v1/orders/:id/cancel',
    'tenant   POST   /api/tenant/v1/orders/:id/payment',
    'processor POST   /api/payments/v1/notifications',
  ]);
});
