import {
  type JsonSchema,
  arrayOf,
  bool,
  dateTime,
  double,
  int32,
  nullable,
  nullableDateTime,
  nullableStr,
  object,
  ref,
  str,
  text,
  uuid,
} from '../json-schema';
import { PROVIDER_CONTRACT, PROVIDER_STATUSES } from './provider';

/**
 * The marketplace as a platform of the Standard Delivery Provider Contract (delivery-assignment):
 * a tenant, or the administrator for every tenant, connects a provider that implements the
 * contract, and assigning a Delivery order to that connection's installation creates the delivery
 * with the provider. The bodies of the tenant and administrator APIs that manage connections,
 * dispatch rules and the dispatch log, and the event a provider POSTs to a delivery's callback.
 */

/**
 * What a connection can be enabled for: `core` (create a delivery, take its callbacks) and the
 * contract's capabilities, named as the conformance kit names them (`sdp-conformance`). Proof of
 * delivery is false in contract 1.1.0 and never enabled.
 */
export const CONNECTION_CAPABILITIES = [
  'core',
  'supportsPolling',
  'supportsTracking',
  'supportsUpdates',
  'supportsCancellation',
  'supportsReturnToOrigin',
  'supportsScheduledDelivery',
  'supportsWebhooks',
] as const;
export type ConnectionCapability = (typeof CONNECTION_CAPABILITIES)[number];

/** Limits of the connection settings (ours: the contract shows none for the platform's side). */
export const CONNECTION_LIMITS = {
  nameMaxLength: 100,
  baseUrlMaxLength: 2_048,
  secretMaxLength: 4_096,
  reasonMinLength: 10,
  reasonMaxLength: 500,
  /** Minutes the provider is told the order needs before pickup, unless the connection says otherwise. */
  defaultPreparationMinutes: 15,
  maxPreparationMinutes: 240,
  /** Ranked connections in a tenant's dispatch rules. */
  maxRankedConnections: 10,
  /** Longest rescue window after the first dispatch, in minutes. */
  maxRescueMinutes: 240,
} as const;

const L = CONNECTION_LIMITS;

const contractVersion = object(
  {
    version: {
      type: 'string',
      pattern: '^1\\.\\d+\\.\\d+$',
      description: `The contract version the provider certified against (semantic, major 1; ours: ${PROVIDER_CONTRACT.version}).`,
    },
    revision: {
      type: 'string',
      format: 'date',
      description: `The revision's publication date (ours: ${PROVIDER_CONTRACT.revision}).`,
    },
  },
  'The contract version and revision the provider certified against (the contract: "Providers record the contract version and revision they certified against").',
);

const connectionFields = {
  name: text(L.nameMaxLength, 'What the tenant calls the provider ("Demo Fleet").'),
  baseUrl: {
    type: 'string',
    format: 'uri',
    maxLength: L.baseUrlMaxLength,
    pattern: '/v1/?$',
    description:
      "The provider environment's base URL, ending in the version segment `/v1`: https, with no credentials, query or " +
      'fragment, not a private or internal address (plain http to loopback only where the deployment allows it, ' +
      '`ALLOW_LOOPBACK_HTTP_URLS`).',
  },
  apiKey: text(
    L.secretMaxLength,
    'The API key the provider issued to the marketplace: sent as `Authorization: Bearer <key>`. Sealed at rest, never shown again.',
  ),
  signingSecret: text(
    L.secretMaxLength,
    'The webhook secret the provider signs callbacks with (X-Platform-Signature). Sealed at rest, never shown again.',
  ),
  contract: contractVersion,
  preparationTimeMinutes: {
    type: 'integer',
    minimum: 0,
    maximum: L.maxPreparationMinutes,
    description: `The \`preparationTimeMinutes\` sent with every delivery (default ${L.defaultPreparationMinutes}).`,
  },
};

/** A tenant connects a provider (or the administrator offers one to every tenant). */
export const ProviderConnectionInput: JsonSchema = object(connectionFields, {
  optional: ['preparationTimeMinutes'],
  description:
    'A connection to a provider implementing the Standard Delivery Provider Contract. It can be assigned deliveries ' +
    'once `core` is enabled: by a conformance certificate (`POST …/certifications`) or by an administrator with a reason.',
});

/** Replaces a connection's credentials (both at once: a rotation at the provider issues both). */
export const ProviderConnectionCredentials: JsonSchema = object(
  { apiKey: connectionFields.apiKey, signingSecret: connectionFields.signingSecret },
  'New credentials of the connection; the old ones stop being used at once.',
);

/** An administrator enables or disables one capability of a connection, with the reason recorded. */
export const CapabilityGrantInput: JsonSchema = object(
  {
    capability: { type: 'string', enum: [...CONNECTION_CAPABILITIES] },
    enabled: bool('True enables it; false disables it (whatever enabled it).'),
    reason: {
      type: 'string',
      minLength: L.reasonMinLength,
      maxLength: L.reasonMaxLength,
      pattern: '\\S',
      description: 'Why, for the record (kept with the grant and in the audit trail).',
    },
  },
  'An administrator decision on one capability, used until a conformance certificate covers it.',
);

/** The signed certificate the conformance kit writes beside its report (`certificate.json`). */
export const ConformanceCertificate: JsonSchema = object(
  {
    kind: { type: 'string', const: 'sdp-conformance-certificate' },
    kit: object({ name: str(), version: str() }),
    contract: object({ version: str(), revision: str() }),
    provider: object({ baseUrl: str(), name: str() }),
    certified: arrayOf(str(), 'The capabilities certified by the run (`core` included when the core passed).'),
    finishedAt: dateTime(),
    reportSha256: str('The SHA-256 of the canonical report it summarises, hex.'),
    signature: object(
      { algorithm: { type: 'string', const: 'Ed25519' }, publicKey: str(), value: str() },
      'Ed25519 over the canonical JSON of the certificate without `signature`.',
    ),
  },
  {
    closed: false,
    description:
      'What `sdp-conformance --signing-key` writes as `certificate.json`: the run summarised and signed. The marketplace ' +
      'trusts the signing keys it is configured with (`CONFORMANCE_TRUSTED_KEYS`).',
  },
);

/** A tenant's dispatch rules: which connections, in what order, and whether to rescue. */
export const DispatchRulesInput: JsonSchema = object(
  {
    connections: {
      type: 'array',
      minItems: 1,
      maxItems: L.maxRankedConnections,
      uniqueItems: true,
      items: uuid(),
      description:
        "The installations of the tenant's provider connections, best first: a dispatch goes to the first that can take it.",
    },
    rescue: object(
      {
        enabled: bool(
          'True: a rejection, or a cancellation or failure before pickup, reassigns the delivery to the next connection.',
        ),
        withinMinutes: {
          type: 'integer',
          minimum: 1,
          maximum: L.maxRescueMinutes,
          description: 'How long after the first dispatch a rescue may still happen.',
        },
      },
      'Rescue: automatic reassignment to the next connection, skipping those that failed the delivery.',
    ),
  },
  'How the tenant dispatches a delivery with `POST /api/tenant/v1/deliveries/{orderId}/dispatch`.',
);

/**
 * A delivery event as a provider POSTs it to the callback (the contract's flat webhook event), as
 * the platform takes it: open (a new optional property is backward compatible), `eventType`
 * optional (contract 1.0) and any string (a new optional event type is backward compatible), but
 * the status must be one of the vocabulary: an unknown one is refused and the last recognised
 * state kept.
 */
export const PlatformCallbackEvent: JsonSchema = {
  ...object(
    {
      eventType: str('Required from contract 1.1; a type we do not know is taken by its status.'),
      platformReference: text(200, 'The assignment id the marketplace sent on create.'),
      providerDeliveryId: text(200),
      providerTrackingId: text(200),
      status: { type: 'string', enum: [...PROVIDER_STATUSES], description: 'One of the contract’s vocabulary.' },
      eventTimeUtc: { type: 'string', format: 'date-time' },
      driverName: nullable({ type: 'string', maxLength: 200 }),
      driverPhone: nullable({ type: 'string', maxLength: 50 }),
      driverLat: nullable({ type: 'number', minimum: -90, maximum: 90 }),
      driverLng: nullable({ type: 'number', minimum: -180, maximum: 180 }),
      trackingUrl: nullable({ type: 'string', maxLength: 2_048 }),
      estimatedDeliveryAtUtc: nullable({ type: 'string', format: 'date-time' }),
    },
    {
      optional: [
        'eventType',
        'providerDeliveryId',
        'providerTrackingId',
        'driverName',
        'driverPhone',
        'driverLat',
        'driverLng',
        'trackingUrl',
        'estimatedDeliveryAtUtc',
      ],
      closed: false,
      description: 'A provider’s event for one delivery, signed with X-Platform-Signature.',
    },
  ),
};

const capabilityState = object(
  {
    enabled: bool(),
    by: nullable({ type: 'string', enum: ['certificate', 'administrator'] }, 'What enabled it; null when disabled.'),
    reason: nullableStr('The administrator’s recorded reason, or the certificate’s kit and time.'),
    at: nullableDateTime(),
  },
  'One capability of a connection.',
);

/** Response schemas of the connections, dispatch rules and dispatch log (OpenAPI `components.schemas`). */
export const providerConnectionSchemas: Record<string, JsonSchema> = {
  ProviderConnection: object(
    {
      connectionId: uuid(),
      installationId: nullable(
        uuid(),
        "The tenant's installation of the connection: what deliveries are assigned to. Null for an offered connection the tenant has not added, and in the administrator's view.",
      ),
      name: str(),
      baseUrl: str(),
      offeredBy: { type: 'string', enum: ['tenant', 'platform'], description: 'Who registered it.' },
      contract: object({ version: str(), revision: str() }),
      preparationTimeMinutes: int32(),
      capabilities: {
        type: 'object',
        properties: Object.fromEntries(CONNECTION_CAPABILITIES.map((c) => [c, ref('ConnectionCapabilityState')])),
        required: [...CONNECTION_CAPABILITIES],
        additionalProperties: false,
      },
      dispatchable: bool('True when `core` is enabled: deliveries can be assigned to it.'),
      createdAt: dateTime(),
    },
    'A connection to a Standard Delivery Provider. Its API key and signing secret are never shown.',
  ),
  ConnectionCapabilityState: capabilityState,
  ProviderScorecard: object(
    {
      connectionId: uuid(),
      dispatched: int32('Deliveries created with the provider (accepted or not).'),
      accepted: int32(),
      acceptanceRate: nullable(double(), 'accepted / dispatched; null before the first.'),
      driverAssigned: int32(),
      meanSecondsToDriver: nullable(
        double(),
        'From the create’s answer to the first driver_assigned event, on average.',
      ),
      cancelledAfterAccept: int32('Cancelled or failed by the provider after accepting.'),
      delivered: int32(),
      deliveredOnTime: int32('Delivered no later than the first estimate the provider gave.'),
      onTimeRate: nullable(double()),
      callbacks: int32('Signed callbacks taken.'),
      meanCallbackLagSeconds: nullable(double(), 'From an event’s time to its arrival, on average.'),
      signatureFailures: int32('Callbacks refused for a missing or wrong signature.'),
      unknownStatuses: int32('Callbacks refused for a status outside the vocabulary.'),
    },
    "A connection's record, computed from the provider's answers and signed events (over every tenant that uses it, for an offered one).",
  ),
  DispatchRules: object(
    {
      connections: arrayOf(uuid()),
      rescue: object({ enabled: bool(), withinMinutes: int32() }),
      updatedAt: nullableDateTime(),
    },
    "The tenant's dispatch rules (empty until set).",
  ),
  DispatchLogEntry: object(
    {
      at: dateTime(),
      assignmentId: uuid(),
      installationId: uuid(),
      connectionId: uuid(),
      connectionName: str(),
      decision: {
        type: 'string',
        enum: ['chosen', 'skipped', 'created', 'rejected', 'create_failed', 'cancel_sent', 'ended', 'rescued'],
      },
      reason: str('Why, in words.'),
    },
    'One decision about a delivery: which connection was chosen or skipped, and why; what the provider answered.',
  ),
  DeliveryDispatch: object(
    {
      orderId: uuid(),
      plan: nullable(
        object(
          {
            candidates: arrayOf(uuid(), 'The ranked installations of the dispatch rules, as they were at dispatch.'),
            tried: arrayOf(uuid(), 'Those the delivery went to, in order.'),
            rescue: object({ enabled: bool(), until: nullableDateTime('Until when a rescue may happen.') }),
            log: arrayOf(
              object({
                at: dateTime(),
                installationId: uuid(),
                decision: { type: 'string', enum: ['chosen', 'skipped', 'rescued'] },
                reason: str(),
              }),
            ),
          },
          'How the order was dispatched by the rules: who was chosen, skipped or rescued to, and why.',
        ),
        'Null when the order was assigned by hand.',
      ),
      dispatches: arrayOf(ref('ProviderDispatch'), "The order's dispatches to provider connections, oldest first."),
    },
    "An order's dispatch: the plan of the tenant's rules and each dispatch to a provider connection.",
  ),
  ProviderDispatch: object(
    {
      orderId: uuid(),
      assignmentId: uuid(),
      connectionId: uuid(),
      providerDeliveryId: nullableStr(),
      providerStatus: nullable({ type: 'string', enum: [...PROVIDER_STATUSES] }),
      providerEventTimeUtc: nullableDateTime('The event time of the last recognised state.'),
      lastHeardAtUtc: nullableDateTime('When the provider last told us anything (a callback or a poll answer).'),
      stateAgeSeconds: nullable(double(), 'How old the last known state is, now.'),
      log: arrayOf(ref('DispatchLogEntry')),
    },
    "An order's dispatch to a provider: the provider's state as the platform knows it, how fresh it is, and the log.",
  ),
};
