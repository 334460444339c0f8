import type { Owner } from './partner-routes';

/**
 * Parts of the tenant API that other services own. The gateway authenticates the tenant's bearer
 * token, then forwards every request under `/api/tenant/v1<prefix>/…` to the owner with a signed
 * tenant identity; the owner answers everything else (routes, validation, 404s). Later features add
 * their prefix here.
 */
export const TENANT_FORWARDS: ReadonlyArray<{ prefix: string; owner: Owner }> = [
  { prefix: '/catalog', owner: 'catalog' },
  { prefix: '/webhooks', owner: 'webhooks' },
  { prefix: '/orders', owner: 'ordering' },
  { prefix: '/delivery-zones', owner: 'ordering' },
  { prefix: '/promotions', owner: 'ordering' },
  { prefix: '/service-fee', owner: 'ordering' },
  { prefix: '/deliveries', owner: 'delivery' }, // delivery-assignment (DELIVERY_URL): assign, reassign, read, dispatch
  { prefix: '/provider-connections', owner: 'delivery' }, // delivery-assignment: the tenant's provider connections
  { prefix: '/dispatch-rules', owner: 'delivery' }, // delivery-assignment: how the tenant dispatches to them
];

/**
 * Parts of the administrator API that other services own, forwarded like the tenant's with a
 * signed administrator identity (its token's subject, for their records).
 */
export const ADMIN_FORWARDS: ReadonlyArray<{ prefix: string; owner: Owner }> = [
  { prefix: '/provider-connections', owner: 'delivery' }, // delivery-assignment: connections offered to every tenant
];
