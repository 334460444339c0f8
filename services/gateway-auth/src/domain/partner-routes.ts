import { isUuid } from './ids';
import type { Scope } from './scopes';

/** The internal service that owns a group of Partner API routes. */
export type Owner = 'catalog' | 'ordering' | 'delivery' | 'webhooks';

/** Each owner's service name: the service a signed identity is issued for, and checked by. */
export const OWNER_SERVICES: Record<Owner, string> = {
  catalog: 'catalog',
  ordering: 'ordering-pricing',
  delivery: 'delivery-assignment',
  webhooks: 'webhook-sender',
};

export interface PartnerRoute {
  method: 'GET' | 'POST' | 'PATCH';
  /** Path under /api/partner/v1, with `:name` parameters (all uuids). */
  pattern: string;
  owner: Owner;
  /** Any one of these grants the call; ownership is then checked by the owner service. */
  scopes: Scope[];
  /**
   * A delivery provider may read this order (Orders.Read): delivery-assignment is asked first
   * whether the caller holds its live assignment, and the answer goes to the owner with the
   * identity (usecases/ask-held-assignment.ts).
   */
  asksHeldAssignment?: true;
  /**
   * Any valid key of the installation may call it, whatever its scopes (`scopes` is empty): the
   * routes of our extension of v1 that show an installation its own data (partner-extension-routes.ts).
   */
  anyKey?: true;
}

export const PARTNER_PREFIX = '/api/partner/v1';

/** The spec's endpoint table, numbered as there. */
export const PARTNER_ROUTES: PartnerRoute[] = [
  { method: 'GET', pattern: '/catalog/branches', owner: 'catalog', scopes: ['Catalog.Read'] }, // 1
  { method: 'GET', pattern: '/catalog/branches/:branchId/products', owner: 'catalog', scopes: ['Catalog.Read'] }, // 2
  {
    method: 'GET',
    pattern: '/catalog/branches/:branchId/products/:productId',
    owner: 'catalog',
    scopes: ['Catalog.Read'],
  }, // 3
  { method: 'POST', pattern: '/orders', owner: 'ordering', scopes: ['Orders.Create'] }, // 4
  {
    method: 'GET',
    pattern: '/orders/:orderId',
    owner: 'ordering',
    scopes: ['Orders.Create', 'Orders.Read'],
    asksHeldAssignment: true,
  }, // 5
  { method: 'POST', pattern: '/orders/:orderId/cancel', owner: 'ordering', scopes: ['Orders.Create'] }, // 6
  { method: 'POST', pattern: '/deliveries/:orderId/accept', owner: 'delivery', scopes: ['Delivery.Accept'] }, // 7
  { method: 'POST', pattern: '/deliveries/:orderId/reject', owner: 'delivery', scopes: ['Delivery.Reject'] }, // 8
  { method: 'POST', pattern: '/deliveries/:orderId/cancel', owner: 'delivery', scopes: ['Delivery.Cancel'] }, // 9
  { method: 'PATCH', pattern: '/deliveries/:orderId/status', owner: 'delivery', scopes: ['Delivery.UpdateStatus'] }, // 10
  { method: 'PATCH', pattern: '/deliveries/:orderId/driver', owner: 'delivery', scopes: ['Delivery.UpdateDriver'] }, // 11
  { method: 'PATCH', pattern: '/deliveries/:orderId/eta', owner: 'delivery', scopes: ['Delivery.UpdateEta'] }, // 12
  { method: 'PATCH', pattern: '/deliveries/:orderId/tracking', owner: 'delivery', scopes: ['Delivery.UpdateTracking'] }, // 13
];

/**
 * The path a request goes on to its owner with, built from the matched route's pattern and its
 * parameters, each encoded: never the caller's raw path, so no spelling of it (dot segments,
 * encoded slashes) can turn into another upstream path.
 */
export function upstreamPath(pattern: string, params: Record<string, string>): string {
  return pattern.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
}

/** Path parameters are uuids: anything else cannot name a resource, so it is simply not found. */
export function validPathParams(params: Record<string, string>): boolean {
  return Object.values(params).every(isUuid);
}

/** Whether the granted scopes allow the route (any one of the route's scopes; any at all for `anyKey`). */
export function hasScope(route: PartnerRoute, granted: readonly string[]): boolean {
  return route.anyKey === true || route.scopes.some((scope) => granted.includes(scope));
}

/** POST and PATCH change state: they need an Idempotency-Key. */
export const isMutation = (route: PartnerRoute) => route.method === 'POST' || route.method === 'PATCH';
