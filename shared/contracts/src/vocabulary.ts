/**
 * The Partner API's words that several contracts and services share: scope codes, the event types
 * an app may subscribe to, and the ways an app authenticates to its partner.
 */

/** Scope codes of the Partner API. Each is independent; none implies another. */
export const SCOPES = [
  'Orders.Create',
  'Orders.Read',
  'Delivery.Accept',
  'Delivery.Reject',
  'Delivery.Cancel',
  'Delivery.UpdateStatus',
  'Delivery.UpdateDriver',
  'Delivery.UpdateEta',
  'Delivery.UpdateTracking',
  'Catalog.Read',
  // Registered, accepted on contract versions, but no endpoint checks them: they grant nothing.
  'Delivery.Read',
  'Payments.Read',
] as const;

export type Scope = (typeof SCOPES)[number];

/** Event types an app may subscribe to. orders.updated and catalog.updated are registered but
 * never emitted; system.test is diagnostic and cannot be subscribed to. */
export const SUBSCRIBABLE_EVENTS = [
  'orders.created',
  'orders.cancelled',
  'payment.completed',
  'delivery.assigned',
  'delivery.cancelled',
  'delivery.superseded',
  'orders.updated',
  'catalog.updated',
] as const;

export type SubscribableEvent = (typeof SUBSCRIBABLE_EVENTS)[number];

export const AUTH_TYPES = ['ApiKey', 'OAuth2'] as const;
export type AuthType = (typeof AUTH_TYPES)[number];

/**
 * The `Idempotency-Key` header: 1 to 128 characters, no leading or trailing whitespace, and no
 * control characters (header values cannot carry them). The gateway checks keys with this very
 * pattern, and the Partner API document declares it.
 */
export const IDEMPOTENCY_KEY = {
  minLength: 1,
  maxLength: 128,
  pattern: '^[^\\s\\u0000-\\u001f\\u007f]([^\\u0000-\\u001f\\u007f]*[^\\s\\u0000-\\u001f\\u007f])?$',
} as const;
