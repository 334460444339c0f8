/** What became of a delivery, in the order the tenant API lists them. */
export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'dead_lettered', 'cancelled'] as const;

export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
