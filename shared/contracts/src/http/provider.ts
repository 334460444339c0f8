import {
  type JsonSchema,
  bool,
  dateTime,
  int32,
  nullable,
  nullableDateTime,
  nullableStr,
  object,
  ref,
  str,
  uuid,
} from '../json-schema';

/**
 * The Standard Delivery Provider Contract as we (provider-delivery) implement it: we are the
 * delivery provider a platform calls. The spec (shared/spec/delivery-provider-contract-v1.md)
 * fixes the fields, the status vocabulary and the envelope; what it leaves open (the e-mail
 * length, the rejection reasons, the webhook test, the error codes, the return event types) is
 * decided here and said so where it is documented.
 */
export const PROVIDER_CONTRACT = { version: '1.1.0', revision: '2026-09-19' } as const;

/** The status vocabulary, in the spec's order. We never send any other value. */
export const PROVIDER_STATUSES = [
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
] as const;
export type ProviderStatusName = (typeof PROVIDER_STATUSES)[number];

/** After one of these, nothing is sent for the delivery again. */
export const TERMINAL_STATUSES = [
  'delivered',
  'cancelled',
  'failed',
  'returned_to_origin',
  'return_failed',
] as const satisfies readonly ProviderStatusName[];

export const isTerminalStatus = (status: ProviderStatusName): boolean =>
  (TERMINAL_STATUSES as readonly string[]).includes(status);

const NONTERMINAL_STATUSES = PROVIDER_STATUSES.filter((status) => !isTerminalStatus(status));

/** The spec's meaning of each status. */
export const PROVIDER_STATUS_MEANINGS: Record<ProviderStatusName, string> = {
  sent_to_provider: 'request recorded',
  provider_accepted: 'delivery accepted',
  driver_assigned: 'driver assigned',
  arrived_at_pickup: 'driver at pickup',
  picked_up: 'goods collected',
  on_the_way: 'traveling to destination',
  delivered: 'delivery completed',
  cancelled: 'delivery canceled',
  failed: 'failed after a real provider decision',
  return_requested: 'return requested',
  returning_to_origin: 'return in progress',
  returned_to_origin: 'return completed',
  return_failed: 'return failed, requires review',
};

/**
 * Event types we send. The first nine are the spec's table; the spec gives no event to the moves
 * to arrived_at_pickup, on_the_way and the four return statuses, so those have event types of
 * our own, which the versioning rules allow (a new optional event type is backward compatible).
 */
export const PROVIDER_EVENT_TYPES = [
  'delivery.accepted',
  'driver.assigned',
  'driver.location_updated',
  'eta.updated',
  'tracking.updated',
  'delivery.picked_up',
  'delivery.delivered',
  'delivery.cancelled',
  'delivery.failed',
  // Ours (new optional event types, contract 1.1.0 revision 2026-09-19).
  'driver.arrived_at_pickup',
  'delivery.on_the_way',
  'delivery.return_requested',
  'delivery.returning_to_origin',
  'delivery.returned_to_origin',
  'delivery.return_failed',
] as const;
export type ProviderEventTypeName = (typeof PROVIDER_EVENT_TYPES)[number];

/**
 * Every allowed move between statuses (the spec shows none and leaves them to the provider: these
 * are ours, the table the service enforces). Forward only, since the platform ignores regressions;
 * `driver_assigned` → `driver_assigned` is a new driver. Terminal statuses move nowhere.
 */
export const PROVIDER_TRANSITIONS: Readonly<Record<ProviderStatusName, readonly ProviderStatusName[]>> = {
  sent_to_provider: ['provider_accepted', 'cancelled', 'failed'],
  provider_accepted: ['driver_assigned', 'cancelled', 'failed'],
  driver_assigned: ['driver_assigned', 'arrived_at_pickup', 'picked_up', 'cancelled', 'failed'],
  arrived_at_pickup: ['picked_up', 'cancelled', 'failed'],
  picked_up: ['on_the_way', 'delivered', 'cancelled', 'failed', 'return_requested'],
  on_the_way: ['delivered', 'cancelled', 'failed', 'return_requested'],
  delivered: [],
  cancelled: [],
  failed: [],
  return_requested: ['returning_to_origin', 'returned_to_origin', 'return_failed'],
  returning_to_origin: ['returned_to_origin', 'return_failed'],
  returned_to_origin: [],
  return_failed: [],
};

/**
 * How we deliver events to a callback (ours, above the spec's floor of at least 6 attempts over at
 * least 15 minutes; webhook-sender's `PROVIDER_CALLBACK_POLICY` applies it): 8 attempts, the first
 * at once, then after 30 s doubling up to a 10-minute cap, ±20 % jitter (nominal delays 0.5, 1, 2,
 * 4, 8, 10, 10 minutes: 35.5 minutes first to last, at least 28.4). A Retry-After on any answer
 * that is retried (408, 429, 5xx; seconds or an HTTP date) is a floor for the next delay, itself
 * capped at 1 hour. Each attempt
 * waits at most 10 seconds for the answer; redirects are not followed.
 */
export const PROVIDER_WEBHOOK_RETRY = {
  attempts: 8,
  firstDelaySeconds: 30,
  factor: 2,
  maxDelaySeconds: 600,
  jitter: 0.2,
  maxRetryAfterSeconds: 3600,
  attemptTimeoutSeconds: 10,
} as const;

/** The event type of `POST /webhooks/test`'s event (ours: the spec does not show that endpoint's bodies). */
export const WEBHOOK_TEST_EVENT_TYPE = 'webhook.test';

/**
 * What each event type says: the status it carries (`current` is the delivery's current status,
 * never a terminal one), the data it must carry, and whether it is one of ours.
 */
export const PROVIDER_EVENTS: Record<
  ProviderEventTypeName,
  { status: ProviderStatusName | 'current'; requires: readonly string[]; data: string; ours: boolean }
> = {
  'delivery.accepted': { status: 'provider_accepted', requires: [], data: 'providerDeliveryId', ours: false },
  'driver.assigned': {
    status: 'driver_assigned',
    requires: [],
    data: 'the driver identity we have (driverName, driverPhone); sent again for a new driver',
    ours: false,
  },
  'driver.location_updated': {
    status: 'current',
    requires: ['driverLat', 'driverLng'],
    data: 'driverLat and driverLng (not null)',
    ours: false,
  },
  'eta.updated': {
    status: 'current',
    requires: ['estimatedDeliveryAtUtc'],
    data: 'estimatedDeliveryAtUtc (not null)',
    ours: false,
  },
  'tracking.updated': {
    status: 'current',
    requires: [],
    data: 'trackingUrl and/or the driver fields',
    ours: false,
  },
  'delivery.picked_up': { status: 'picked_up', requires: [], data: 'none', ours: false },
  'delivery.delivered': { status: 'delivered', requires: [], data: 'none', ours: false },
  'delivery.cancelled': { status: 'cancelled', requires: [], data: 'none', ours: false },
  'delivery.failed': { status: 'failed', requires: [], data: 'none (a real terminal provider failure)', ours: false },
  'driver.arrived_at_pickup': { status: 'arrived_at_pickup', requires: [], data: 'none', ours: true },
  'delivery.on_the_way': { status: 'on_the_way', requires: [], data: 'none', ours: true },
  'delivery.return_requested': { status: 'return_requested', requires: [], data: 'none', ours: true },
  'delivery.returning_to_origin': { status: 'returning_to_origin', requires: [], data: 'none', ours: true },
  'delivery.returned_to_origin': { status: 'returned_to_origin', requires: [], data: 'none', ours: true },
  'delivery.return_failed': { status: 'return_failed', requires: [], data: 'none', ours: true },
};

/**
 * The spec's event table: what a platform account receives unless it chooses otherwise (its
 * `eventTypes`). A platform built against that table may answer our own types 4xx, which the
 * sender takes as permanent, so ours are opt-in.
 */
export const SPEC_EVENT_TYPES: readonly ProviderEventTypeName[] = PROVIDER_EVENT_TYPES.filter(
  (type) => !PROVIDER_EVENTS[type].ours,
);

/**
 * `POST /webhooks/test` (ours: the spec shows no bodies). One deadline covers the whole call (the
 * callback host's resolution, the connection and the answer), well inside the platform's 15-second
 * timeout; a repeat of the same test (same account, same URL) within `dedupeWindowSeconds` answers
 * the first one's outcome and sends nothing, since the platform retries this endpoint
 * automatically. A repeat that finds the first still running waits for its outcome at most
 * `repeatWaitSeconds` from its own start (the first, begun earlier, is done by then).
 */
export const WEBHOOK_TEST_LIMITS = { deadlineSeconds: 10, repeatWaitSeconds: 11, dedupeWindowSeconds: 60 } as const;

/**
 * The limits of the create table, which PATCH shares. Only `customerEmailMaxLength` is ours (the
 * spec shows none; 254 is the longest address SMTP carries), and `reasonCodeMaxLength` (the return).
 */
export const PROVIDER_LIMITS = {
  platformReferenceMaxLength: 200,
  idempotencyKeyMaxLength: 200,
  addressMaxLength: 500,
  customerNameMaxLength: 200,
  customerPhoneMaxLength: 50,
  customerEmailMaxLength: 254,
  paymentMethodMaxLength: 100,
  notesMaxLength: 2000,
  reasonCodeMaxLength: 100,
  /** Inclusive; at most two decimals (the service checks the decimals: `multipleOf` misjudges binary fractions). */
  amountMinimum: 0,
  amountMaximum: 9_999_999_999.99,
  amountDecimals: 2,
  currencyPattern: '^[A-Z]{3}$',
  latitudeMinimum: -90,
  latitudeMaximum: 90,
  longitudeMinimum: -180,
  longitudeMaximum: 180,
  preparationTimeMinutesMinimum: 0,
  callbackUrlMaxLength: 2048,
} as const;

/** Rejection reasons of a create answered `accepted: false` (ours; the spec leaves them open). */
export const PROVIDER_REJECTION_REASONS = {
  outside_service_area: 'the pickup or the drop-off lies outside the area we serve',
  scheduled_delivery_not_supported:
    'scheduledDeliveryAtUtc was set but the scheduled-delivery capability is not enabled for the account',
} as const;

/**
 * Error codes of the envelope, each with the HTTP statuses it comes with (ours: the spec shows none
 * but the validation shape): exactly what provider-delivery sends on `/v1`, from its platform
 * routes, use cases and guards and the shared HTTP layer (provider-delivery's
 * http/openapi/error-codes.test.ts reads them from the source and checks this list both ways).
 */
export const PROVIDER_ERROR_CODES = {
  'request.malformed': { statuses: [400], meaning: 'the body (or the request itself) is not valid JSON or HTTP' },
  'request.invalid': {
    statuses: [400, 422],
    meaning:
      'fields break the contract, fieldErrors names each (422); a JSON body nested too deeply, before any field is read (400)',
  },
  'request.path_invalid': {
    statuses: [400],
    meaning: 'the path is not canonical: a dot or empty segment, an encoded dot, slash or backslash (in an id, say)',
  },
  'request.aborted': { statuses: [400], meaning: 'the client went away before its body was received' },
  'auth.unauthenticated': { statuses: [401], meaning: 'the API key is missing or invalid' },
  'auth.forbidden': {
    statuses: [403],
    meaning: 'the key is valid but the account lacks the endpoint’s capability (update, cancellation, return)',
  },
  'delivery.not_found': {
    statuses: [404],
    meaning: 'no such delivery for this account (another account’s is the same)',
  },
  'resource.not_found': { statuses: [404], meaning: 'no such path: it is not an endpoint of this contract' },
  'request.method_not_allowed': {
    statuses: [405],
    meaning: 'the path exists but not with this method (`Allow` names its methods)',
  },
  'request.timeout': { statuses: [408], meaning: 'the request was not received in time; the connection is closed' },
  'idempotency.payload_mismatch': {
    statuses: [409],
    meaning: 'the idempotencyKey was used with a different delivery payload',
  },
  'idempotency.callback_mismatch': {
    statuses: [409],
    meaning: 'the idempotencyKey was used with a different webhook.url',
  },
  'request.too_large': { statuses: [413], meaning: 'the body is larger than the service accepts' },
  'request.unsupported_media_type': { statuses: [415], meaning: 'the body is not application/json' },
  'request.rate_limited': { statuses: [429], meaning: 'too many requests; wait Retry-After seconds' },
  'request.headers_too_large': {
    statuses: [431],
    meaning: 'the request line and headers are too large; the connection is closed',
  },
  internal: { statuses: [500], meaning: 'an unexpected failure (details are logged, never returned)' },
  'service.unavailable': {
    statuses: [503],
    meaning:
      'we are unavailable for a moment (a store, or the callback host’s DNS, out of reach); wait Retry-After seconds',
  },
  'resource.busy': {
    statuses: [503],
    meaning: 'another change of the same delivery holds it; try again after Retry-After (a second)',
  },
} as const satisfies Record<string, { statuses: readonly number[]; meaning: string }>;
export type ProviderErrorCode = keyof typeof PROVIDER_ERROR_CODES;

const L = PROVIDER_LIMITS;

// ---- Field schemas (request schemas are self-contained: each is inlined, no $ref) ----

/** A required string: 1 to `max` characters, at least one that is not whitespace. */
const filled = (max: number, description: string): JsonSchema => ({
  type: 'string',
  minLength: 1,
  maxLength: max,
  pattern: '\\S',
  description: `${description} 1 to ${max} characters, not only whitespace.`,
});
const latitude = (description: string): JsonSchema => ({
  type: 'number',
  format: 'double',
  minimum: L.latitudeMinimum,
  maximum: L.latitudeMaximum,
  description: `${description} Degrees, ${L.latitudeMinimum} to ${L.latitudeMaximum}.`,
});
const longitude = (description: string): JsonSchema => ({
  type: 'number',
  format: 'double',
  minimum: L.longitudeMinimum,
  maximum: L.longitudeMaximum,
  description: `${description} Degrees, ${L.longitudeMinimum} to ${L.longitudeMaximum}.`,
});
const amount = (description: string): JsonSchema => ({
  type: 'number',
  format: 'double',
  minimum: L.amountMinimum,
  maximum: L.amountMaximum,
  description:
    `${description} A JSON number in the currency's major unit (9.5 is 9.50), 0 to 9,999,999,999.99, at most two ` +
    'decimals (the decimals are checked by the service: 422 `request.invalid`).',
});
const currency: JsonSchema = {
  type: 'string',
  pattern: L.currencyPattern,
  description: 'Three uppercase letters (ISO 4217), for example `EUR`.',
};
const paymentMethod: JsonSchema = filled(
  L.paymentMethodMaxLength,
  '`cash`, `card`, `online`, `wallet`, or a raw value agreed at onboarding (stored and shown to the driver as is).',
);
const notes: JsonSchema = {
  type: ['string', 'null'],
  maxLength: L.notesMaxLength,
  description:
    `For the driver; at most ${L.notesMaxLength} characters. The one free-text field that may be empty or only ` +
    'whitespace: stored as sent (on PATCH such a string is a value and replaces the notes; null leaves them).',
};
const preparationTimeMinutes: JsonSchema = {
  ...int32('Minutes until the goods are ready at the pickup; 0 or more.'),
  minimum: L.preparationTimeMinutesMinimum,
};
const scheduledDeliveryAtUtc = (description: string): JsonSchema =>
  nullableDateTime(
    `${description} RFC 3339 with an explicit offset. Needs the scheduled-delivery capability: without it a create is ` +
      'answered `accepted: false` with `scheduled_delivery_not_supported`, an update with `fieldAccepted` false.',
  );

/**
 * A callback URL, as far as a pattern can say it: `https://`, a host (a name or an address; an IPv6
 * address in brackets), no credentials, no port but 443, no fragment, no whitespace; or plain
 * `http://` to loopback on any port, which only local and test deployments accept (where
 * ALLOW_LOOPBACK_HTTP_URLS is set; production answers 422). That the host resolves to public
 * addresses only the service can check: 422 `request.invalid` at the same field, as for the rest,
 * with a message naming the rule broken.
 */
export const CALLBACK_URL_PATTERN =
  '^(https://([^\\s/?#@:\\[\\]]+|\\[[0-9A-Fa-f:.]+\\])(:443)?|http://(localhost|127\\.0\\.0\\.1|\\[::1\\])(:[0-9]{1,5})?)([/?][^\\s#]*)?$';
const callbackUrl = (description: string): JsonSchema => ({
  type: ['string', 'null'],
  format: 'uri',
  maxLength: L.callbackUrlMaxLength,
  pattern: CALLBACK_URL_PATTERN,
  description:
    `${description} An absolute \`https://\` URL of at most ${L.callbackUrlMaxLength} characters, without credentials, ` +
    'fragment or a port other than 443, whose host resolves to a public address (else 422 `request.invalid`). ' +
    'Redirects are not followed. The token in its path is a secret: never logged. An empty or blank string is 422, not ' +
    'read as absent: send null or leave the property out. (Local and test deployments also accept plain `http://` to ' +
    'loopback, on any port; production does not.)',
});

/**
 * Every request body is open, at every level (the callback object included): versioning rule 1
 * makes a new optional request property a backward-compatible change, so a property we do not
 * know is accepted and ignored. The service validates the properties each schema lists and passes
 * on only them (`dropUnknown` of `bodyValidator`): nothing unknown is checked, stored or compared.
 */
const IGNORED =
  'Properties not listed here are accepted and ignored (neither validated nor stored): versioning rule 1 makes a new ' +
  'optional request property a backward-compatible change.';

const PROVIDER_CALLBACK = {
  ...object(
    {
      url: callbackUrl(
        "This delivery's callback: every event of the delivery goes there. Null or absent: the account's global webhook " +
          'URL, else no push (poll the status).',
      ),
    },
    { optional: ['url'], closed: false, description: `The per-delivery callback. ${IGNORED}` },
  ),
  title: 'ProviderCallback',
};

// ---- Request schemas ----

export const ProviderCreateDeliveryRequest: JsonSchema = object(
  {
    platformReference: filled(
      L.platformReferenceMaxLength,
      "The platform's durable correlation id of the delivery: stored and returned unchanged in every event.",
    ),
    idempotencyKey: filled(
      L.idempotencyKeyMaxLength,
      'The durable idempotency identity (today equal to platformReference), scoped to the account.',
    ),
    pickupAddress: filled(L.addressMaxLength, 'Pickup address, one line.'),
    pickupLat: latitude('Pickup latitude.'),
    pickupLng: longitude('Pickup longitude.'),
    customerName: filled(L.customerNameMaxLength, 'The recipient.'),
    customerPhone: filled(L.customerPhoneMaxLength, "The recipient's phone, as the platform has it."),
    dropoffAddress: filled(L.addressMaxLength, 'Drop-off address, one line.'),
    dropoffLat: latitude('Drop-off latitude.'),
    dropoffLng: longitude('Drop-off longitude.'),
    paymentMethod,
    amount: amount('What the customer pays (the driver collects it with `cash` or a card on delivery).'),
    deliveryFeeAmount: nullable(amount('The delivery fee, if the platform states it.')),
    currency,
    notes,
    preparationTimeMinutes,
    scheduledDeliveryAtUtc: scheduledDeliveryAtUtc('When to deliver; null or absent: as soon as possible.'),
    webhook: nullable(PROVIDER_CALLBACK, 'Absent or null: no per-delivery callback (see `url`).'),
  },
  {
    optional: ['deliveryFeeAmount', 'notes', 'scheduledDeliveryAtUtc', 'webhook'],
    closed: false,
    description:
      'Create a delivery. Replays with the same idempotencyKey return the first answer; a changed payload or callback ' +
      'is 409; the comparison covers the properties listed here only, so a replay that adds an unknown one is the same ' +
      'request. The HMAC secret is provisioned separately and never part of this body (a `webhook.secret` is ignored ' +
      `like any other unknown property). ${IGNORED}`,
  },
);

/** The drop-off trio of PATCH: any one of them (not null) needs the other two (not null). */
const DROPOFF = ['dropoffAddress', 'dropoffLat', 'dropoffLng'] as const;
const DROPOFF_TYPES: Record<(typeof DROPOFF)[number], string> = {
  dropoffAddress: 'string',
  dropoffLat: 'number',
  dropoffLng: 'number',
};

/** The fields PATCH may carry, in the spec's order. */
export const PROVIDER_UPDATE_FIELDS = [
  'dropoffAddress',
  'dropoffLat',
  'dropoffLng',
  'customerPhone',
  'scheduledDeliveryAtUtc',
  'notes',
  'customerName',
  'customerEmail',
  'amount',
  'currency',
  'paymentMethod',
  'deliveryFeeAmount',
  'preparationTimeMinutes',
] as const;

const UNCHANGED = 'Null or absent: unchanged.';
export const ProviderUpdateDeliveryRequest: JsonSchema = {
  ...object(
    {
      dropoffAddress: nullable(filled(L.addressMaxLength, 'New drop-off address; with dropoffLat and dropoffLng.')),
      dropoffLat: nullable(latitude('New drop-off latitude; with dropoffAddress and dropoffLng.')),
      dropoffLng: nullable(longitude('New drop-off longitude; with dropoffAddress and dropoffLat.')),
      customerPhone: nullable(filled(L.customerPhoneMaxLength, "The recipient's phone.")),
      scheduledDeliveryAtUtc: scheduledDeliveryAtUtc('When to deliver.'),
      notes: { ...notes, description: `${notes.description as string} ${UNCHANGED} (Clearing is not supported.)` },
      customerName: nullable(filled(L.customerNameMaxLength, 'The recipient.')),
      customerEmail: nullable(
        filled(
          L.customerEmailMaxLength,
          `The recipient's e-mail, a string (the spec shows no maximum: ${L.customerEmailMaxLength} is ours, the longest ` +
            'address SMTP carries; the format is not checked). Only PATCH has it: the create request has no ' +
            'customerEmail, so one sent there is ignored like any unknown property.',
        ),
      ),
      amount: nullable(amount('What the customer pays.')),
      currency: nullable(currency),
      paymentMethod: nullable(paymentMethod),
      deliveryFeeAmount: nullable(amount('The delivery fee.')),
      preparationTimeMinutes: nullable(preparationTimeMinutes),
    },
    {
      optional: [...PROVIDER_UPDATE_FIELDS],
      closed: false,
      description:
        `Any subset of the fields; types and limits are those of the create request. ${UNCHANGED} (An omitted field ` +
        'and an explicit null both leave the field as it is; clearing a nullable field is not supported.) ' +
        'dropoffAddress, dropoffLat and dropoffLng are sent together: any one of them not null needs the other two not ' +
        'null (else 422 `request.invalid`, naming the missing ones). An empty object changes nothing. ' +
        `${IGNORED} An ignored property gets no entry in \`fieldAccepted\`.`,
    },
  ),
  // A trio member that is set (not null) needs the other two set. Not `dependencies` (draft-07 only,
  // unknown to OpenAPI 3.1's dialect, and blind to null): if/then says the same in both dialects
  // and names the missing field in the error.
  allOf: DROPOFF.map((field) => {
    const others = DROPOFF.filter((other) => other !== field);
    return {
      if: { required: [field], properties: { [field]: { type: DROPOFF_TYPES[field] } } },
      then: {
        required: others,
        properties: Object.fromEntries(others.map((other) => [other, { type: DROPOFF_TYPES[other] }])),
      },
    };
  }),
};

export const ProviderCancelRequest: JsonSchema = object(
  {
    stage: {
      type: 'string',
      enum: ['before_pickup', 'after_pickup'],
      description:
        "Where the platform believes the delivery is. The outcome follows the delivery's actual status: see the " +
        "cancellation table of the document's description.",
    },
  },
  {
    closed: false,
    description: `Cancel a delivery. Not retried automatically by the platform; repeating the same cancel is idempotent. ${IGNORED}`,
  },
);

export const ProviderReturnRequest: JsonSchema = object(
  {
    reasonCode: filled(
      L.reasonCodeMaxLength,
      'Why the goods go back to the pickup (the platform’s code, stored as is).',
    ),
  },
  { closed: false, description: `Bring picked-up goods back to the pickup (supportsReturnToOrigin). ${IGNORED}` },
);

export const ProviderWebhookTestRequest: JsonSchema = object(
  {
    url: callbackUrl(
      "The callback to test. Null or absent: the account's global webhook URL. Nothing is stored: a test changes no " +
        'delivery and no setting.',
    ),
    eventType: {
      type: 'string',
      const: WEBHOOK_TEST_EVENT_TYPE,
      description: 'If sent, `webhook.test`: the only event a test sends.',
    },
  },
  {
    optional: ['url', 'eventType'],
    closed: false,
    description:
      'Ours (the spec does not show this body). `{}` (or an empty body) tests the global webhook URL. ' + IGNORED,
  },
);

// ---- Response schemas (may refer to each other) ----

const statusEnum: JsonSchema = {
  type: 'string',
  enum: [...PROVIDER_STATUSES],
  'x-enum-descriptions': PROVIDER_STATUSES.map(
    (status) => `${PROVIDER_STATUS_MEANINGS[status]}${isTerminalStatus(status) ? ' (terminal)' : ''}`,
  ),
  description:
    'Delivery status: ' +
    PROVIDER_STATUSES.map(
      (status) => `\`${status}\` ${PROVIDER_STATUS_MEANINGS[status]}${isTerminalStatus(status) ? ' (terminal)' : ''}`,
    ).join('; ') +
    '. No other value is ever sent.',
};

const eventTypeEnum: JsonSchema = {
  type: 'string',
  enum: [...PROVIDER_EVENT_TYPES],
  description:
    'Event type (required from contract 1.1). ' +
    PROVIDER_EVENT_TYPES.map(
      (type) =>
        `\`${type}\`: status ${PROVIDER_EVENTS[type].status === 'current' ? 'the current nonterminal one' : `\`${PROVIDER_EVENTS[type].status}\``}` +
        `${PROVIDER_EVENTS[type].ours ? ' (ours: a new optional event type of 1.1.0)' : ''}`,
    ).join('; ') +
    '.',
};

const driverLat = nullable(
  { type: 'number', format: 'double', minimum: L.latitudeMinimum, maximum: L.latitudeMaximum },
  "The driver's latitude; null when unknown. Null exactly when driverLng is.",
);
const driverLng = nullable(
  { type: 'number', format: 'double', minimum: L.longitudeMinimum, maximum: L.longitudeMaximum },
  "The driver's longitude; null when unknown. Null exactly when driverLat is.",
);
/** driverLat and driverLng are both numbers or both null. */
const PAIRED_COORDINATES = [
  { if: { properties: { driverLat: { type: 'number' } } }, then: { properties: { driverLng: { type: 'number' } } } },
  { if: { properties: { driverLng: { type: 'number' } } }, then: { properties: { driverLat: { type: 'number' } } } },
];

/** Per event type: the status it carries and the data it must have. */
const EVENT_RULES: JsonSchema[] = PROVIDER_EVENT_TYPES.map((type) => {
  const { status, requires } = PROVIDER_EVENTS[type];
  const statusRule = status === 'current' ? { enum: NONTERMINAL_STATUSES } : { const: status };
  return {
    if: { required: ['eventType'], properties: { eventType: { const: type } } },
    then: {
      properties: {
        status: statusRule,
        ...Object.fromEntries(requires.map((field) => [field, { not: { type: 'null' } }])),
      },
    },
  };
});

/** Provider contract schemas other than the request bodies, by name (`components.schemas`). */
export const providerSchemas: Record<string, JsonSchema> = {
  ProviderStatus: statusEnum,
  ProviderEventType: eventTypeEnum,

  ProviderCreateDeliveryResponse: {
    ...object(
      {
        accepted: bool('True: the delivery exists (status provider_accepted). False: a business rejection.'),
        providerDeliveryId: {
          type: 'string',
          minLength: 1,
          pattern: '\\S',
          description: 'Our durable delivery id, for every later call. Present (non-blank) exactly when accepted.',
        },
        providerTrackingId: str(
          'Never sent by this provider: the spec makes it optional, and our deliveries have no tracking id besides ' +
            'providerDeliveryId (the customer’s tracking page is the `trackingUrl` of events and tracking reads).',
        ),
        rejectionReason: {
          type: 'string',
          minLength: 1,
          description:
            'Present exactly when not accepted. An open set of codes; ours today: ' +
            Object.entries(PROVIDER_REJECTION_REASONS)
              .map(([code, meaning]) => `\`${code}\` (${meaning})`)
              .join(', ') +
            '.',
        },
      },
      {
        optional: ['providerDeliveryId', 'providerTrackingId', 'rejectionReason'],
        description:
          '200 for acceptance and rejection alike. A replay with the same idempotencyKey returns this same answer, ' +
          'identifiers included.',
      },
    ),
    if: { properties: { accepted: { const: true } } },
    then: { required: ['providerDeliveryId'] },
    else: { required: ['rejectionReason'], properties: { providerDeliveryId: false, providerTrackingId: false } },
  },

  ProviderUpdateDeliveryResponse: object(
    {
      fieldAccepted: {
        type: 'object',
        propertyNames: { enum: [...PROVIDER_UPDATE_FIELDS] },
        additionalProperties: bool(),
        description:
          'One boolean per property present in the request, null ones included (true: left unchanged as asked). ' +
          'True: changed (the drop-off trio is one change and gets one answer, repeated on its three fields). ' +
          'False: not changed in the current status (see the update table of the description) or not supported.',
      },
      errorMessage: nullableStr('Why fields were refused; null when every field was accepted.'),
    },
    { optional: ['errorMessage'] },
  ),

  ProviderCancelResponse: object(
    {
      confirmed: bool('True: the delivery is cancelled (now, or already by the same cancellation).'),
      errorMessage: nullableStr('Why it was not confirmed; null when confirmed.'),
    },
    { optional: ['errorMessage'] },
  ),

  ProviderReturnResponse: object(
    {
      accepted: bool('True: a return is under way (now, or already).'),
      errorMessage: nullableStr('Why it was not accepted; null when accepted.'),
    },
    { optional: ['errorMessage'] },
  ),

  ProviderStatusResponse: object(
    {
      status: ref('ProviderStatus'),
      eventTimeUtc: dateTime('When we observed the status: the eventTimeUtc of its event.'),
    },
    'The current status: that of the latest event sent, or newer.',
  ),

  ProviderTrackingResponse: {
    ...object(
      {
        driverName: nullableStr('Null when no driver is assigned.'),
        driverPhone: nullableStr('Null when no driver is assigned or the phone is unknown.'),
        driverLat,
        driverLng,
        trackingUrl: nullableStr('A page the customer can follow; null when there is none.'),
        estimatedDeliveryAtUtc: nullableDateTime('Null when there is no estimate.'),
        eventTimeUtc: dateTime('When we observed this data.'),
      },
      'Current tracking data. Unavailable data is null, never invented.',
    ),
    allOf: PAIRED_COORDINATES,
  },

  ProviderWebhookEvent: {
    ...object(
      {
        eventType: ref('ProviderEventType'),
        platformReference: str('As received on create, unchanged.'),
        providerDeliveryId: str('Our delivery id (always sent).'),
        providerTrackingId: str(
          'Never sent by this provider (optional in the spec; our deliveries have no tracking id besides ' +
            'providerDeliveryId, which every event carries).',
        ),
        status: ref('ProviderStatus'),
        eventTimeUtc: dateTime('When we observed the event; the same on every retry of the event.'),
        driverName: nullableStr(),
        driverPhone: nullableStr(),
        driverLat,
        driverLng,
        trackingUrl: nullableStr(),
        estimatedDeliveryAtUtc: nullableDateTime(),
      },
      {
        optional: ['providerTrackingId'],
        description:
          'A flat event, POSTed to the callback of its delivery. Every event carries the delivery’s current driver, ' +
          'location, tracking URL and estimate (null when unknown), whatever its type. After a terminal status ' +
          'nothing is sent for the delivery again.',
      },
    ),
    allOf: [...EVENT_RULES, ...PAIRED_COORDINATES],
  },

  ProviderWebhookTestEvent: object(
    {
      eventType: { type: 'string', const: WEBHOOK_TEST_EVENT_TYPE },
      testId: uuid('The same as in the answer to `POST /webhooks/test`.'),
      eventTimeUtc: dateTime(),
    },
    'Ours: what `POST /webhooks/test` sends, signed like every event. It concerns no delivery.',
  ),

  ProviderWebhookTestResponse: object(
    {
      testId: uuid(
        'Identifies the test event that was sent (or would have been); a repeat answered from the first test has ' +
          'the first test’s id.',
      ),
      callbackConfigured: bool(
        'Whether there was a URL to test (the `url` of the request or the global webhook URL) and a webhook secret.',
      ),
      delivered: bool('True: the callback answered 2xx to the one attempt made.'),
      responseStatus: nullable(int32(), 'The HTTP status the callback answered; null when there was no answer.'),
      errorMessage: nullableStr(
        'Why it was not delivered (no URL, timeout, connection refused, a non-2xx status); null when delivered. Never ' +
          'contains the URL or its token.',
      ),
      eventTimeUtc: dateTime('The eventTimeUtc of the test event.'),
    },
    'The outcome of one signed `webhook.test` event sent at once (one attempt, no retries; the whole call within ' +
      `${WEBHOOK_TEST_LIMITS.deadlineSeconds} seconds). A repeat of the same test (same account, same URL) within ` +
      `${WEBHOOK_TEST_LIMITS.dedupeWindowSeconds} seconds answers this same outcome, \`testId\` included, and sends nothing.`,
  ),

  ProviderError: object(
    {
      code: str(
        'Stable code: ' +
          Object.entries(PROVIDER_ERROR_CODES)
            .map(([code, { statuses }]) => `\`${code}\` (${statuses.join(', ')})`)
            .join(', ') +
          '. Further codes may be added.',
      ),
      message: str('For people; never contains stack traces, SQL, secrets, internal exception types or credentials.'),
      retryable: bool('Whether the same request may succeed later (429 and 503).'),
      fieldErrors: {
        type: 'object',
        additionalProperties: { type: 'array', items: { type: 'string' } },
        description:
          '`request.invalid` only: field path (`webhook.url`, `dropoffLat`) mapped to messages; `(body)` for the body ' +
          'itself.',
      },
    },
    { optional: ['fieldErrors'], description: 'The error envelope of every error answer.' },
  ),
};
