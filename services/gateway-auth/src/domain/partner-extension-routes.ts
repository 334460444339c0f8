import type { PartnerRoute } from './partner-routes';

/**
 * Our extension of the Partner API v1 (not the spec's): an installation's own webhook deliveries,
 * owned by webhook-sender. Any valid API key of the installation may call them (`anyKey`: no scope
 * is asked, none is granted); the owner scopes every answer to the calling installation.
 */
export const PARTNER_EXTENSION_ROUTES: PartnerRoute[] = [
  { method: 'GET', pattern: '/webhooks/deliveries', owner: 'webhooks', scopes: [], anyKey: true },
  { method: 'GET', pattern: '/webhooks/deliveries/:deliveryId', owner: 'webhooks', scopes: [], anyKey: true },
  {
    method: 'POST',
    pattern: '/webhooks/deliveries/:deliveryId/redeliver',
    owner: 'webhooks',
    scopes: [],
    anyKey: true,
  },
];
