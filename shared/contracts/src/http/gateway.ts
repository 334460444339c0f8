import { type JsonSchema, nullable, object, text, uuid } from '../json-schema';
import { AUTH_TYPES, SCOPES, SUBSCRIBABLE_EVENTS } from '../vocabulary';

/** Request bodies of gateway-auth's administrator and tenant APIs. */
const slug: JsonSchema = {
  type: 'string',
  pattern: '^[a-z0-9][a-z0-9-]{1,62}$',
  description: 'Lowercase letters, digits and hyphens; 2 to 63 characters, not starting with a hyphen.',
};

/** A URL the service calls (webhook receiver, a partner's OAuth endpoint). */
const outboundUrl = (description: string): JsonSchema => ({
  type: 'string',
  minLength: 1,
  maxLength: 2048,
  format: 'uri',
  pattern: '^https?://',
  description:
    `${description} An absolute https URL without credentials or fragment, not pointing at a private or internal ` +
    'address; plain http to a loopback host only when the deployment allows it (local and test setups).',
});

export const TenantInput = object(
  {
    slug,
    name: text(200),
    // ISO 4217 codes in use; the generated type stays `string` rather than a union of some 300 codes.
    currencyCode: {
      type: 'string',
      enum: Intl.supportedValuesOf('currency'),
      tsType: 'string',
      description: 'An ISO 4217 currency code, for example EUR. Fixed once the tenant exists.',
    },
    defaultLanguage: {
      type: 'string',
      pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$',
      description: 'BCP 47 tag, for example en or en-GB.',
    },
    sandbox: {
      type: 'boolean',
      description:
        'A sandbox tenant (default false): its installations may drive scripted scenarios with `POST /api/partner/v1/sandbox/scenarios`. Fixed once the tenant exists.',
    },
  },
  { optional: ['sandbox'] },
);

/** How long a minted tenant token may live: 30 days, or up to 365 when the administrator asks for it. */
export const TENANT_TOKEN_LIFETIME = {
  minSeconds: 60,
  defaultSeconds: 2_592_000,
  /** Without `allowLongerThan30Days`. */
  maxSeconds: 2_592_000,
  /** With `allowLongerThan30Days: true`. */
  extendedMaxSeconds: 31_536_000,
} as const;

export const TenantTokenRequest: JsonSchema = {
  ...object(
    {
      expiresInSeconds: {
        type: 'integer',
        format: 'int32',
        minimum: TENANT_TOKEN_LIFETIME.minSeconds,
        maximum: TENANT_TOKEN_LIFETIME.extendedMaxSeconds,
        default: TENANT_TOKEN_LIFETIME.defaultSeconds,
        description:
          'Lifetime in seconds; default 30 days (2592000). At most 30 days unless `allowLongerThan30Days` is true, ' +
          'then at most 365 days (31536000).',
      },
      allowLongerThan30Days: {
        type: 'boolean',
        default: false,
        description: 'The administrator asks for a token living longer than 30 days (up to 365).',
      },
    },
    { optional: ['expiresInSeconds', 'allowLongerThan30Days'] },
  ),
  // Longer than 30 days only when asked for explicitly: the error names `expiresInSeconds`.
  if: { not: { required: ['allowLongerThan30Days'], properties: { allowLongerThan30Days: { const: true } } } },
  then: { properties: { expiresInSeconds: { type: 'integer', maximum: TENANT_TOKEN_LIFETIME.maxSeconds } } },
};

/** How long the previous API key keeps working after a rotation (0: it stops at once). */
export const API_KEY_ROTATION_OVERLAP = { defaultSeconds: 0, minSeconds: 0, maxSeconds: 604_800 } as const;

export const InstallationApiKeyRotateRequest: JsonSchema = object(
  {
    overlapSeconds: {
      type: 'integer',
      format: 'int32',
      minimum: API_KEY_ROTATION_OVERLAP.minSeconds,
      maximum: API_KEY_ROTATION_OVERLAP.maxSeconds,
      default: API_KEY_ROTATION_OVERLAP.defaultSeconds,
      description:
        'How long the previous API key keeps working, 0 to 604800 seconds (7 days); 0, the default, stops it at once.',
    },
  },
  { optional: ['overlapSeconds'], description: 'Mint a new API key; the previous one stops after the overlap.' },
);

export const AppInput = object(
  { slug, name: text(200), description: nullable({ type: 'string', maxLength: 2000 }) },
  { optional: ['description'] },
);

export const OAuth2Input = {
  ...object(
    {
      authorizationEndpoint: outboundUrl("The partner's authorization endpoint."),
      tokenEndpoint: outboundUrl("The partner's token endpoint."),
      clientId: text(512, "Client id issued by the partner's OAuth server."),
      clientSecret: { ...text(2048, 'Stored encrypted; never returned.'), writeOnly: true },
      scopes: {
        type: 'array',
        maxItems: 50,
        default: [],
        description: 'Scopes sent in the authorization request.',
        items: {
          type: 'string',
          pattern: '^[\\x21\\x23-\\x5B\\x5D-\\x7E]{1,200}$',
          description: 'An OAuth scope token (RFC 6749, 3.3).',
        },
      },
      tokenEndpointAuthMethod: {
        type: 'string',
        enum: ['client_secret_basic', 'client_secret_post'],
        default: 'client_secret_basic',
      },
    },
    {
      optional: ['scopes', 'tokenEndpointAuthMethod'],
      description:
        "How the service authenticates to the partner's own OAuth2 server (authorization-code flow with PKCE).",
    },
  ),
  title: 'OAuth2Input',
};

export const ContractVersionInput: JsonSchema = {
  ...object(
    {
      authType: {
        type: 'string',
        enum: [...AUTH_TYPES],
        description: 'How the service authenticates to the partner at connect time.',
      },
      scopes: {
        type: 'array',
        uniqueItems: true,
        maxItems: SCOPES.length,
        items: {
          type: 'string',
          enum: [...SCOPES],
          description: 'Partner API scope. Delivery.Read and Payments.Read are accepted but grant nothing.',
        },
      },
      subscribedEvents: {
        type: 'array',
        uniqueItems: true,
        maxItems: SUBSCRIBABLE_EVENTS.length,
        items: {
          type: 'string',
          enum: [...SUBSCRIBABLE_EVENTS],
          description:
            'orders.updated and catalog.updated are reserved: accepted, never emitted. system.test cannot be subscribed to.',
        },
        description:
          'Must include delivery.assigned when any Delivery.* scope is given (a delivery provider learns of its work by it); ' +
          'else 400 `request.invalid` naming subscribedEvents.',
      },
      webhookUrl: nullable(outboundUrl('Where webhooks are sent. Required when any event is subscribed.')),
      oauth2: nullable(OAuth2Input, 'Required if and only if authType is OAuth2.'),
    },
    { optional: ['webhookUrl', 'oauth2'] },
  ),
  allOf: [
    {
      if: { required: ['subscribedEvents'], properties: { subscribedEvents: { type: 'array', minItems: 1 } } },
      then: { required: ['webhookUrl'], properties: { webhookUrl: { type: 'string' } } },
    },
    {
      if: { required: ['authType'], properties: { authType: { const: 'OAuth2' } } },
      then: { required: ['oauth2'], properties: { oauth2: { type: 'object' } } },
      else: { properties: { oauth2: { type: 'null' } } },
    },
  ],
};

export const InstallationInput = object({
  appId: uuid(),
  contractVersion: {
    type: 'integer',
    format: 'int32',
    minimum: 1,
    description: 'The exact published contract version the tenant consents to.',
  },
});

/**
 * The sandbox's scenarios (ours, an extension of Partner API v1): what a sandbox tenant's
 * installation may ask the sandbox to do to its orders and deliveries, as the restaurant would.
 */
export const SANDBOX_SCENARIOS = [
  'order.accept',
  'order.reject',
  'order.cancel',
  'delivery.assign',
  'delivery.reassign',
  'webhook.fail',
  'secret.rotate',
] as const;
export type SandboxScenarioName = (typeof SANDBOX_SCENARIOS)[number];

export const SandboxScenarioRequest: JsonSchema = object(
  {
    scenario: {
      type: 'string',
      enum: [...SANDBOX_SCENARIOS],
      description:
        '`order.accept`, `order.reject`, `order.cancel`: the restaurant acts on `orderId`; `delivery.assign`: it assigns ' +
        "`orderId`'s delivery to the calling installation; `delivery.reassign`: it reassigns the delivery the caller " +
        'holds (Assigned) to `installationId`; `webhook.fail`: the next `times` webhooks to the caller fail (answered ' +
        '503 by the sandbox, not sent), so retries and the delivery log can be tried; `secret.rotate`: the webhook ' +
        'signing secret is rotated (both sign for 24 hours).',
    },
    orderId: uuid('The order the scenario acts on (order.*, delivery.*).'),
    installationId: uuid('delivery.reassign: the installation of the sandbox tenant the delivery goes to.'),
    times: {
      type: 'integer',
      minimum: 1,
      maximum: 8,
      description: 'webhook.fail: how many of the next webhooks fail (1 to 8).',
    },
  },
  { optional: ['orderId', 'installationId', 'times'], description: 'A scripted scenario of the sandbox.' },
);
