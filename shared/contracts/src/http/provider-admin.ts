import {
  type JsonSchema,
  bool,
  dateTime,
  nullable,
  nullableDateTime,
  object,
  ref,
  str,
  text,
  uuid,
} from '../json-schema';
import { areaGeometry } from './geometry';
import { PROVIDER_EVENT_TYPES, PROVIDER_EVENTS, PROVIDER_LIMITS, SPEC_EVENT_TYPES } from './provider';

/**
 * provider-delivery's administrator API: the platform accounts that call the provider contract,
 * their API keys and webhook secrets. Invalid bodies are 400 `request.invalid` with `fieldErrors`
 * (the provider envelope); rules that need more than a schema (a polygon's rings, the callback
 * URL's safety, proof of delivery) are checked by the use cases with the same answer.
 */

const serviceArea = areaGeometry(
  'Where the account is served; a create whose pickup or drop-off lies outside is refused with `outside_service_area`.',
);

const webhookUrl: JsonSchema = nullable(
  { type: 'string', minLength: 1, maxLength: PROVIDER_LIMITS.callbackUrlMaxLength },
  'The global webhook URL, used when a create brings no `webhook.url`; null for none. Absolute https, at most ' +
    `${PROVIDER_LIMITS.callbackUrlMaxLength} characters, the standard port, no credentials, no fragment, no private ` +
    'or internal address.',
);

const capabilities = (description: string): JsonSchema =>
  object(
    {
      supportsPolling: bool('GET …/status and …/tracking are part of the integration.'),
      supportsReturnToOrigin: bool('POST …/return is enabled.'),
      supportsProofOfDelivery: bool(
        'Must be false: proof of delivery is outside contract revision 1.1.0 (true is 400).',
      ),
      supportsScheduledDelivery: bool('Creates may carry scheduledDeliveryAtUtc.'),
      supportsUpdates: bool('PATCH is enabled.'),
      supportsCancellation: bool('POST …/cancel is enabled.'),
    },
    description,
  );

/**
 * The platform API's rate limit, per account (ours: the contract leaves the numbers to the
 * provider). Every authenticated `/v1` request of the account counts, whatever the endpoint; more
 * than `requestsPerMinute` in any `windowSeconds` is 429 `request.rate_limited` with Retry-After.
 */
export const PLATFORM_RATE_LIMIT = {
  /** An account created without a limit, and one stored before limits existed. */
  defaultRequestsPerMinute: 1_200,
  minRequestsPerMinute: 1,
  maxRequestsPerMinute: 1_000_000,
  /** The sliding window the limit is counted over. */
  windowSeconds: 60,
} as const;

const R = PLATFORM_RATE_LIMIT;
const rateLimit = (description: string): JsonSchema =>
  object(
    {
      requestsPerMinute: {
        type: 'integer',
        minimum: R.minRequestsPerMinute,
        maximum: R.maxRequestsPerMinute,
        description:
          `Authenticated \`/v1\` requests of the account admitted in any ${R.windowSeconds} seconds (a sliding window), ` +
          `every endpoint counted together; ${R.minRequestsPerMinute} to ${R.maxRequestsPerMinute}. More is 429 ` +
          '`request.rate_limited` with Retry-After.',
      },
    },
    description,
  );

/**
 * The event types the account's platform receives (ours: the spec has no such setting). The spec's
 * table is the default; our own types (the moves the table gives no event) are opt-in, since a
 * platform built against the table may answer them 4xx, which is permanent.
 */
const eventTypes = (description: string): JsonSchema => ({
  type: 'array',
  uniqueItems: true,
  maxItems: PROVIDER_EVENT_TYPES.length,
  items: { type: 'string', enum: [...PROVIDER_EVENT_TYPES] },
  description:
    `${description} Any of the known types, each at most once; an unknown one is 400 \`request.invalid\`. The spec’s ` +
    `table (${SPEC_EVENT_TYPES.map((t) => `\`${t}\``).join(', ')}) unless set; ours, opt-in: ` +
    `${PROVIDER_EVENT_TYPES.filter((t) => PROVIDER_EVENTS[t].ours)
      .map((t) => `\`${t}\``)
      .join(', ')}. ` +
    'A type not chosen is not sent for the account’s deliveries (their status still moves: the status and tracking ' +
    'reads show it, and the next event sent carries it). An empty list sends no event.',
});

/** The courier simulator's bounds (local setups, tests, the demo). */
export const SIMULATOR_LIMITS = { maxDrivers: 1_000, maxTimeScale: 1_000 } as const;

const simulator = (description: string): JsonSchema =>
  object(
    {
      enabled: bool(
        'Simulated drivers take the account’s deliveries (only where the service runs with SIMULATOR_ENABLED).',
      ),
      drivers: {
        type: 'integer',
        minimum: 0,
        maximum: SIMULATOR_LIMITS.maxDrivers,
        description: `How many simulated drivers the account has (0 to ${SIMULATOR_LIMITS.maxDrivers}).`,
      },
      timeScale: {
        type: 'integer',
        minimum: 1,
        maximum: SIMULATOR_LIMITS.maxTimeScale,
        description:
          'How many times faster than real time a delivery created while the simulator is on runs, for its whole ' +
          `life: preparation, offers, the dispatch window, travel and estimates (1 to ${SIMULATOR_LIMITS.maxTimeScale}).`,
      },
    },
    description,
  );

export const PlatformAccountInput: JsonSchema = object(
  {
    name: text(200, 'For administrators.'),
    webhookUrl,
    capabilities: capabilities('Every capability, each true or false.'),
    serviceArea,
    rateLimit: rateLimit(
      `The platform API’s rate limit; ${R.defaultRequestsPerMinute} requests per minute when absent.`,
    ),
    simulator: simulator('The courier simulator; off when absent.'),
    eventTypes: eventTypes('The event types the platform receives.'),
  },
  { optional: ['webhookUrl', 'rateLimit', 'simulator', 'eventTypes'], description: 'A new platform account.' },
);

export const PlatformAccountPatch: JsonSchema = {
  ...object(
    {
      name: text(200),
      webhookUrl,
      capabilities: capabilities('Every capability, each true or false (the whole set is replaced).'),
      serviceArea,
      rateLimit: rateLimit('The platform API’s rate limit; takes effect within 5 seconds.'),
      simulator: simulator('The courier simulator; deliveries already created keep their clock.'),
      eventTypes: eventTypes(
        'The event types the platform receives (the whole list is replaced; events of existing deliveries follow it ' +
          'within 5 seconds).',
      ),
    },
    {
      optional: ['name', 'webhookUrl', 'capabilities', 'serviceArea', 'rateLimit', 'simulator', 'eventTypes'],
      description: 'The fields to change.',
    },
  ),
  minProperties: 1,
};

export const ApiKeyRotateRequest: JsonSchema = object(
  {
    overlapSeconds: {
      type: 'integer',
      minimum: 0,
      maximum: 604_800,
      description: 'How long the other live keys keep working (0 to 604800 seconds; 86400 when absent).',
    },
  },
  { optional: ['overlapSeconds'], description: 'Mint a new key; the others expire after the overlap.' },
);

/** Answers of the administrator API (responses: they may refer to each other). */
export const providerAdminSchemas: Record<string, JsonSchema> = {
  PlatformAccount: object(
    {
      id: uuid(),
      name: str(),
      webhookUrl: nullable({ type: 'string' }),
      capabilities: ref('PlatformCapabilitiesView'),
      serviceArea: { type: 'object', description: 'The GeoJSON Polygon or MultiPolygon as entered.' },
      rateLimit: ref('PlatformRateLimitView'),
      simulator: ref('PlatformSimulatorView'),
      eventTypes: {
        type: 'array',
        items: { type: 'string', enum: [...PROVIDER_EVENT_TYPES] },
        description:
          'The event types the platform receives, in the order of the known types (the spec’s table for an account ' +
          'that never chose).',
      },
      createdAt: dateTime(),
      updatedAt: dateTime(),
    },
    'A platform account. Never carries a key or the webhook secret.',
  ),
  PlatformCapabilitiesView: capabilities('The account’s capabilities.'),
  PlatformRateLimitView: rateLimit('The account’s rate limit on the platform API.'),
  PlatformSimulatorView: simulator('The account’s courier simulator.'),
  PlatformAccountCreated: object(
    {
      account: ref('PlatformAccount'),
      webhookSecret: str(
        'The webhook signing secret (`pwhsec_…`), shown this once: store it now. Stored encrypted; no read shows it.',
      ),
    },
    'The new account and its webhook secret.',
  ),
  PlatformApiKey: object(
    {
      keyId: str('`pdk_…`: public, names the key.'),
      createdAt: dateTime(),
      expiresAt: nullableDateTime('Set by a rotation: the key stops working then. Null: no expiry.'),
      revokedAt: nullableDateTime(),
      live: bool('Neither revoked nor expired.'),
    },
    'An API key, without its secret.',
  ),
  PlatformApiKeyMinted: object(
    {
      keyId: str(),
      apiKey: str('`<keyId>.<secret>`, shown this once: the platform sends `Authorization: Bearer <apiKey>`.'),
      createdAt: dateTime(),
      expiresAt: nullableDateTime(),
    },
    'A new key; only its hash is stored.',
  ),
  WebhookSecretRotated: object(
    {
      webhookSecret: str('The new secret, shown this once; the old one stops signing at once.'),
      rotatedAt: dateTime(),
    },
    'The account’s new webhook secret.',
  ),
};
