import { routeLine } from '@marketplace/http';
import { declaredRoutes } from './routes';

// The route table of provider-delivery, each route with its audience: the review surface of who may call what.
// A route added, removed or moved to another audience shows here, in the diff of this test.

it('declares exactly these routes, each with its audience', () => {
  expect(declaredRoutes().map(routeLine)).toEqual([
    'probe    GET    /healthz',
    'probe    GET    /readyz',
    'probe    GET    /metrics',
    'admin    GET    /admin/v1/openapi.json',
    'admin    POST   /admin/v1/platform-accounts',
    'admin    GET    /admin/v1/platform-accounts',
    'admin    GET    /admin/v1/platform-accounts/:accountId',
    'admin    PATCH  /admin/v1/platform-accounts/:accountId',
    'admin    POST   /admin/v1/platform-accounts/:accountId/api-keys',
    'admin    GET    /admin/v1/platform-accounts/:accountId/api-keys',
    'admin    POST   /admin/v1/platform-accounts/:accountId/api-keys/rotate',
    'admin    DELETE /admin/v1/platform-accounts/:accountId/api-keys/:keyId',
    'admin    POST   /admin/v1/platform-accounts/:accountId/webhook-secret/rotate',
    'admin    GET    /admin/v1/platform-accounts/:accountId/deliveries/:providerDeliveryId',
    'admin    POST   /admin/v1/platform-accounts/:accountId/deliveries/:providerDeliveryId/events',
    'admin    POST   /admin/v1/platform-accounts/:accountId/drivers',
    'admin    GET    /admin/v1/platform-accounts/:accountId/drivers',
    'admin    GET    /admin/v1/platform-accounts/:accountId/drivers/:driverId',
    'admin    PATCH  /admin/v1/platform-accounts/:accountId/drivers/:driverId',
    'admin    POST   /admin/v1/platform-accounts/:accountId/drivers/:driverId/token',
    'public   GET    /courier/v1/openapi.json',
    'courier  GET    /courier/v1/me',
    'courier  POST   /courier/v1/me/availability',
    'courier  POST   /courier/v1/me/location',
    'courier  POST   /courier/v1/offers/:providerDeliveryId/accept',
    'courier  POST   /courier/v1/offers/:providerDeliveryId/decline',
    'courier  GET    /courier/v1/deliveries/:providerDeliveryId',
    'courier  POST   /courier/v1/deliveries/:providerDeliveryId/events',
    'public   GET    /v1/openapi.json',
    'platform POST   /v1/deliveries',
    'platform GET    /v1/deliveries/:providerDeliveryId/status',
    'platform GET    /v1/deliveries/:providerDeliveryId/tracking',
    'platform PATCH  /v1/deliveries/:providerDeliveryId',
    'platform POST   /v1/deliveries/:providerDeliveryId/cancel',
    'platform POST   /v1/deliveries/:providerDeliveryId/return',
    'platform POST   /v1/webhooks/test',
    'public   GET    /track/:token',
    'public   GET    /track/:token/state',
  ]);
});
