/**
 * Rules a contract version must keep across its scopes and events (the JSON schema checks each
 * field alone). Spec, Integration types: a delivery provider learns of its work through
 * `delivery.assigned` (required), so a version holding any `Delivery.*` scope must subscribe to it:
 * otherwise the tenant could assign it deliveries it is never told of.
 */
export const DELIVERY_ASSIGNED = 'delivery.assigned';

export const isDeliveryScope = (scope: string): boolean => scope.startsWith('Delivery.');

/** The events these scopes require that `events` lacks (none when it has them all). */
export function missingRequiredEvents(scopes: readonly string[], events: readonly string[]): string[] {
  return scopes.some(isDeliveryScope) && !events.includes(DELIVERY_ASSIGNED) ? [DELIVERY_ASSIGNED] : [];
}
