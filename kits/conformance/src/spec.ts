import type { SpecRef, Status } from './model';

/**
 * The contract's tables, transcribed from the Standard Delivery Provider Contract v1 (1.1.0,
 * revision 2026-09-19) and nothing else: the kit certifies against the document, not against any
 * one provider's choices. A test names the section (and rule) each check comes from.
 */

export const CONTRACT = { version: '1.1.0', revision: '2026-09-19', apiMajor: 'v1' } as const;

/** Section headings of the contract, as a test's `spec` names them. */
export const SECTIONS = {
  service: 'What the service does',
  createRequest: 'Create delivery request',
  createResponse: 'Create delivery response',
  updateRequest: 'Update delivery request',
  updateResponse: 'Update delivery response',
  cancellationAndReturn: 'Cancellation and return',
  statusResponse: 'Status response',
  trackingResponse: 'Tracking response',
  webhookEvent: 'Webhook event (flat JSON)',
  errorEnvelope: 'Error envelope',
  states: 'States and transitions',
  endpoints: 'Endpoints',
  create: 'Create delivery (POST /deliveries)',
  update: 'Update (PATCH /deliveries/{providerDeliveryId})',
  cancelReturn: 'Cancel and return',
  statusTracking: 'Status and tracking (GET)',
  callback: 'Per-delivery callback',
  authentication: 'Authentication',
  events: 'Events',
  errors: 'Errors',
  limits: 'Limits',
  versioning: 'Versioning',
} as const;

export const ref = (section: keyof typeof SECTIONS, rule?: string): SpecRef =>
  rule === undefined ? { section: SECTIONS[section] } : { section: SECTIONS[section], rule };

/** The status vocabulary and which statuses are terminal ("States and transitions"). */
export const STATUSES: readonly Status[] = [
  'sent_to_provider',
  'provider_accepted',
  'driver_assigned',
  'arrived_at_pickup',
  'picked_up',
  'on_the_way',
  'delivered',
  'cancelled',
  'failed',
  'return_requested',
  'returning_to_origin',
  'returned_to_origin',
  'return_failed',
];
export const TERMINAL: readonly Status[] = ['delivered', 'cancelled', 'failed', 'returned_to_origin', 'return_failed'];
export const isStatus = (value: unknown): value is Status =>
  typeof value === 'string' && (STATUSES as string[]).includes(value);
export const isTerminal = (status: Status): boolean => TERMINAL.includes(status);

/**
 * The event table ("Events"): each type, the status it must carry, and the data it requires.
 * `nonterminal` is "the current nonterminal status", `current` any current status.
 */
export const EVENT_TABLE: Readonly<
  Record<
    string,
    { status: Status | 'nonterminal' | 'current'; requires: readonly string[]; requiresAny?: readonly string[] }
  >
> = {
  'delivery.accepted': { status: 'provider_accepted', requires: ['providerDeliveryId'] },
  'driver.assigned': { status: 'driver_assigned', requires: [], requiresAny: ['driverName', 'driverPhone'] },
  'driver.location_updated': { status: 'nonterminal', requires: ['driverLat', 'driverLng'] },
  'eta.updated': { status: 'nonterminal', requires: ['estimatedDeliveryAtUtc'] },
  'tracking.updated': {
    status: 'current',
    requires: [],
    requiresAny: ['trackingUrl', 'driverName', 'driverPhone', 'driverLat', 'estimatedDeliveryAtUtc'],
  },
  'delivery.picked_up': { status: 'picked_up', requires: [] },
  'delivery.delivered': { status: 'delivered', requires: [] },
  'delivery.cancelled': { status: 'cancelled', requires: [] },
  'delivery.failed': { status: 'failed', requires: [] },
};
export const SPEC_EVENT_TYPES: readonly string[] = Object.keys(EVENT_TABLE);

/** The webhook event's fields ("Webhook event (flat JSON)"). */
export const EVENT_FIELDS = [
  'eventType',
  'platformReference',
  'providerDeliveryId',
  'providerTrackingId',
  'status',
  'eventTimeUtc',
  'driverName',
  'driverPhone',
  'driverLat',
  'driverLng',
  'trackingUrl',
  'estimatedDeliveryAtUtc',
] as const;

/** The create request's field table ("Create delivery request"). */
export const CREATE_LIMITS = {
  platformReference: 200,
  idempotencyKey: 200,
  pickupAddress: 500,
  customerName: 200,
  customerPhone: 50,
  dropoffAddress: 500,
  paymentMethod: 100,
  notes: 2000,
  callbackUrl: 2048,
  amountMax: 9_999_999_999.99,
} as const;
export const REQUIRED_CREATE_FIELDS = [
  'platformReference',
  'idempotencyKey',
  'pickupAddress',
  'pickupLat',
  'pickupLng',
  'customerName',
  'customerPhone',
  'dropoffAddress',
  'dropoffLat',
  'dropoffLng',
  'paymentMethod',
  'amount',
  'currency',
  'preparationTimeMinutes',
] as const;

/** "Limits". */
export const PLATFORM_LIMITS = {
  timeoutMs: 15_000,
  maxResponseBytes: 5 * 1024 * 1024,
  idempotentAttempts: 3,
  retryAfterCapSeconds: 30,
} as const;

/** "Errors": the statuses the contract gives a meaning. */
export const ERROR_STATUSES = [400, 401, 403, 404, 409, 422, 429, 500, 502, 503] as const;

/** RFC 3339 date-time with an explicit offset (Z or ±hh:mm). */
export const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
export const isRfc3339 = (value: unknown): boolean =>
  typeof value === 'string' && RFC3339.test(value) && !Number.isNaN(Date.parse(value));

/** Lowercase hex HMAC-SHA256, no prefix ("Authentication"). */
export const SIGNATURE_HEADER = 'x-platform-signature';
