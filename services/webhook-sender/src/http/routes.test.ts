import { routeLine } from '@marketplace/http';
import { declaredRoutes } from './routes';

// The route table of webhook-sender, each route with its audience: the review surface of who may call what.
// A route added, removed or moved to another audience shows here, in the diff of this test.

it('declares exactly these routes, each with its audience', () => {
  expect(declaredRoutes().map(routeLine)).toEqual([
    'probe    GET    /healthz',
    'probe    GET    /readyz',
    'probe    GET    /metrics',
    'tenant   GET    /api/tenant/v1/webhooks/openapi.json',
    'tenant   GET    /api/tenant/v1/webhooks/installations/:installationId/deliveries',
    'tenant   POST   /api/tenant/v1/webhooks/installations/:installationId/test',
    'tenant   GET    /api/tenant/v1/webhooks/deliveries/:deliveryId',
    'tenant   POST   /api/tenant/v1/webhooks/deliveries/:deliveryId/redeliver',
    'partner  GET    /api/partner/v1/webhooks/deliveries',
    'partner  GET    /api/partner/v1/webhooks/deliveries/:deliveryId',
    'partner  POST   /api/partner/v1/sandbox/webhook-failures',
    'partner  POST   /api/partner/v1/webhooks/deliveries/:deliveryId/redeliver',
    'admin    GET    /admin/v1/provider-callbacks/openapi.json',
    'admin    GET    /admin/v1/provider-callbacks',
    'admin    GET    /admin/v1/provider-callbacks/:deliveryId',
    'admin    POST   /admin/v1/provider-callbacks/:deliveryId/redeliver',
  ]);
});
