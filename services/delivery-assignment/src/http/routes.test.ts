import { routeLine } from '@marketplace/http';
import { declaredRoutes } from './routes';

// The route table of delivery-assignment, each route with its audience: the review surface of who may call what.
// A route added, removed or moved to another audience shows here, in the diff of this test.

it('declares exactly these routes, each with its audience', () => {
  expect(declaredRoutes().map(routeLine)).toEqual([
    'probe    GET    /healthz',
    'probe    GET    /readyz',
    'probe    GET    /metrics',
    'partner  POST   /api/partner/v1/deliveries/:orderId/accept',
    'partner  POST   /api/partner/v1/deliveries/:orderId/reject',
    'partner  POST   /api/partner/v1/deliveries/:orderId/cancel',
    'partner  PATCH  /api/partner/v1/deliveries/:orderId/status',
    'partner  PATCH  /api/partner/v1/deliveries/:orderId/driver',
    'partner  PATCH  /api/partner/v1/deliveries/:orderId/eta',
    'partner  GET    /api/partner/v1/orders/:orderId/held-assignment',
    'partner  PATCH  /api/partner/v1/deliveries/:orderId/tracking',
    'tenant   GET    /api/tenant/v1/deliveries/openapi.json',
    'tenant   POST   /api/tenant/v1/deliveries/:orderId/assign',
    'tenant   GET    /api/tenant/v1/deliveries/:orderId',
    'tenant   POST   /api/tenant/v1/deliveries/:orderId/dispatch',
    'tenant   GET    /api/tenant/v1/deliveries/:orderId/dispatch',
    'tenant   PUT    /api/tenant/v1/dispatch-rules',
    'tenant   GET    /api/tenant/v1/dispatch-rules',
    'tenant   GET    /api/tenant/v1/provider-connections/openapi.json',
    'tenant   POST   /api/tenant/v1/provider-connections',
    'tenant   GET    /api/tenant/v1/provider-connections',
    'tenant   GET    /api/tenant/v1/provider-connections/:connectionId',
    'tenant   GET    /api/tenant/v1/provider-connections/:connectionId/scorecard',
    'tenant   POST   /api/tenant/v1/provider-connections/:connectionId/install',
    'tenant   PUT    /api/tenant/v1/provider-connections/:connectionId/credentials',
    'tenant   POST   /api/tenant/v1/provider-connections/:connectionId/certifications',
    'admin    POST   /api/admin/v1/provider-connections',
    'admin    GET    /api/admin/v1/provider-connections',
    'admin    GET    /api/admin/v1/provider-connections/:connectionId/scorecard',
    'admin    PUT    /api/admin/v1/provider-connections/:connectionId/credentials',
    'admin    POST   /api/admin/v1/provider-connections/:connectionId/certifications',
    'admin    POST   /api/admin/v1/provider-connections/:connectionId/capabilities',
    'public   POST   /api/provider-callbacks/v1/:token',
  ]);
});
