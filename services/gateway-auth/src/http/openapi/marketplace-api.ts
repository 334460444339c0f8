/**
 * OpenAPI 3.1 description of the marketplace's own APIs, served at `GET /api/marketplace/openapi.json`:
 * the administrator API (`/api/admin/v1`: tenants and their tokens, apps, contract versions, the
 * audit log), the tenant API
 * (`/api/tenant/v1`: the app directory and installations, with their credentials) and the OAuth2
 * callback the restaurant's browser returns to. The routes implement this document.
 */
import { AUTH_TYPES, SCOPES, SUBSCRIBABLE_EVENTS, OAuth2InputSchema, requestSchemas } from '@marketplace/contracts';
import {
  arrayOf,
  partnerApiSchemas,
  bool,
  dateTime,
  nullable,
  nullableDateTime,
  nullableRef,
  nullableStr,
  nullableUuid,
  object,
  ref,
  str,
  uuid,
  type JsonSchema as Json,
} from '@marketplace/contracts';
import { SECRET_OVERLAP_HOURS, jsonResponse, problemResponse } from './partner-api';

// ---------------------------------------------------------------------------------------------
// Small builders
// ---------------------------------------------------------------------------------------------

const response = (properties: Record<string, Json>, description?: string): Json =>
  object(properties, { closed: true, description });

const SLUG_PATTERN = '^[a-z0-9][a-z0-9-]{1,62}$';
const slug = (): Json => ({
  type: 'string',
  pattern: SLUG_PATTERN,
  description: 'Lowercase letters, digits and hyphens; 2 to 63 characters, not starting with a hyphen.',
});
const name = (): Json => ({ type: 'string', minLength: 1, maxLength: 200 });
const versionNumber = (description = 'Contract version number: 1, 2, 3, ... per app.'): Json => ({
  type: 'integer',
  format: 'int32',
  minimum: 1,
  description,
});

/** A URL the service calls (webhook receiver, a partner's OAuth endpoint). */
const outboundUrl = (description: string): Json => ({
  type: 'string',
  format: 'uri',
  pattern: '^https?://',
  description:
    `${description} An absolute https URL without credentials or fragment, not pointing at a private or internal ` +
    'address; plain http to a loopback host only when the deployment allows it (local and test setups).',
});

const responseRef = (name: string): Json => ({ $ref: `#/components/responses/${name}` });
const parameterRef = (name: string): Json => ({ $ref: `#/components/parameters/${name}` });
const NO_STORE: Json = { 'Cache-Control': { $ref: '#/components/headers/CacheControlNoStore' } };

function body(schemaName: string, description: string, required = true): Json {
  return { required, description, content: { 'application/json': { schema: ref(schemaName) } } };
}

const conflict = (codes: string): Json => problemResponse(`Conflict. Codes: ${codes}.`);
/** Another change of the same resource held it too long; trying again shortly succeeds. */
const BUSY: Json = {
  '503': {
    ...problemResponse(
      'Another change of the same resource is in progress. Code: `resource.busy`; retry after `Retry-After` seconds.',
    ),
    headers: { 'Retry-After': { schema: { type: 'integer', minimum: 1 }, description: 'Seconds to wait.' } },
  },
};

type Security = 'adminToken' | 'tenantToken' | 'none';

interface OperationSpec {
  tag: string;
  operationId: string;
  summary: string;
  description?: string;
  parameters?: Json[];
  requestBody?: Json;
  responses: Record<string, Json>;
}

/** An operation of the admin or tenant API: bearer token, 401 on every route. */
function op(security: Security, spec: OperationSpec): Json {
  return {
    tags: [spec.tag],
    operationId: spec.operationId,
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    security: security === 'none' ? [] : [{ [security]: [] }],
    ...(spec.parameters ? { parameters: spec.parameters } : {}),
    ...(spec.requestBody ? { requestBody: spec.requestBody } : {}),
    responses: security === 'none' ? spec.responses : { ...spec.responses, '401': responseRef('Unauthorized') },
  };
}

const admin = (spec: OperationSpec): Json => op('adminToken', spec);
const tenant = (spec: OperationSpec): Json => op('tenantToken', spec);

const BAD_REQUEST = responseRef('BadRequest');
const NOT_FOUND = responseRef('NotFound');

// ---------------------------------------------------------------------------------------------
// info.description
// ---------------------------------------------------------------------------------------------

const DESCRIPTION = `
The marketplace's own APIs: the **administrator API** (\`/api/admin/v1\`) registers tenants, apps and
contract versions; the **tenant API** (\`/api/tenant/v1\`) is what a restaurant's store dashboard
uses to install, connect and manage apps; the **OAuth2 callback** (\`/api/marketplace/oauth/callback\`)
is where the restaurant's browser returns from a partner's authorization server. The partner-facing
API is described separately at \`/api/partner/v1/openapi.json\`.

## Authentication

HTTP bearer tokens: compact JWS (JWT, HS256) signed with the deployment's token key, with the claims
\`role\`, \`sub\`, \`iat\`, \`exp\` and, for tenants, \`tid\`.

- \`adminToken\`: \`role\` = \`admin\`; every \`/api/admin/v1\` route. Issued by the platform's own
  login system.
- \`tenantToken\`: \`role\` = \`tenant\`, bound to one tenant (\`tid\`); every \`/api/tenant/v1\` route.
  Issued by the platform's login system or by \`POST /api/admin/v1/tenants/{tenantId}/tokens\`.

Tokens minted by \`POST /api/admin/v1/tenants/{tenantId}/tokens\` carry an id (\`jti\`), live 30 days by
default and at most 30 days unless the administrator sets \`allowLongerThan30Days\` (then at most 365
days), and are listed (ids and dates, never the token) and revoked one by one under
\`/api/admin/v1/tenants/{tenantId}/tokens\`. A revoked token is refused on every gateway instance
within the deployment's revocation refresh (5 seconds by default). A token without \`jti\` (minted
before tokens had ids, or by a login system that sets none) cannot be revoked and is valid until it
expires.

A missing, malformed, expired or revoked token, or a token of the wrong role, is **401**
\`auth.unauthenticated\` (one generic message). A tenant sees only its own installations: another
tenant's installation is a **404**, exactly like a nonexistent one. A path id that is not a uuid (or a
contract version that is not a positive integer) names nothing: **404** as well.

## Errors

\`application/problem+json\` (RFC 9457) with \`type\`, \`status\`, \`title\`, \`detail\`, a stable \`code\`
and optionally \`instance\` and, for validation failures, \`errors\` (field path → messages). \`type\` is
\`/docs/problems/<code>\`, a relative URI reference (resolve it against the request's URI) naming a
page that describes the code.

| Status | Code | When |
|---|---|---|
| 400 | \`request.malformed\` | The body is not JSON. |
| 400 | \`request.invalid\` | Validation failed; \`errors\` maps field paths (for example \`oauth2.tokenEndpoint\`) to messages. |
| 400 | \`oauth.state_invalid\` | OAuth callback: unknown, expired or used state, or missing parameters. |
| 400 | \`oauth.authorization_denied\` | OAuth callback: the partner's server returned an error such as \`access_denied\`. |
| 401 | \`auth.unauthenticated\` | Missing, malformed, expired or revoked token, or wrong role. |
| 404 | \`resource.not_found\` | The resource does not exist or belongs to another tenant. |
| 405 | \`request.method_not_allowed\` | The path exists but not with this method. |
| 409 | \`marketplace.tenant.slug_taken\` | A tenant with this slug exists. |
| 409 | \`marketplace.app.slug_taken\` | An app with this slug exists. |
| 409 | \`marketplace.contract_version.published\` | A published contract version is immutable. |
| 409 | \`marketplace.installation.exists\` | The tenant already has this app installed. |
| 409 | \`marketplace.installation.already_connected\` | Connect on a Connected installation (use reconnect). |
| 409 | \`marketplace.installation.not_connected\` | The operation needs a connected installation. |
| 409 | \`marketplace.installation.no_events\` | The app subscribes to no events: there is no webhook signing secret. |
| 413 | \`request.too_large\` | The request body is too large. |
| 415 | \`request.unsupported_media_type\` | The request body is not JSON. |
| 429 | \`rate_limit.exceeded\` | A rate limit was exceeded; retry after the seconds in \`Retry-After\` (see Rate limits). |
| 502 | \`oauth.token_exchange_failed\` | The partner's token endpoint failed or answered badly. |
| 503 | \`service.unavailable\` | A dependency (database, Redis) is unavailable; retry after \`Retry-After\`. |
| 504 | \`oauth.token_exchange_timeout\` | The partner's token endpoint did not answer in time. |

## Rate limits

Sliding windows of 60 seconds, shared by every gateway instance; each deployment may set other
numbers. The **tenant API** admits 1,200 requests per client IP (every request, counted before the
token is checked) and 600 per tenant (all its tokens together, the catalog, ordering, delivery and
webhook parts included); the **administrator API** 600 per client IP and 300 per administrator
(\`sub\`). Counted answers carry the IETF RateLimit fields of the per-caller limit
(draft-ietf-httpapi-ratelimit-headers), for example \`RateLimit-Policy: "tenant";q=600;w=60\` and
\`RateLimit: "tenant";r=599\` (\`"admin"\` on the administrator API; a refusal adds \`t\`, the seconds
to wait, with \`r=0\`); a refused request is **429** \`rate_limit.exceeded\` with \`Retry-After\` in whole seconds, and
is not counted.

## Lifecycle

1. An administrator creates the app, adds a contract version (Draft) and publishes it. A published
   version is immutable; changes go into a new version.
2. The tenant installs the app, naming the exact published contract version it consents to
   (install and consent are one step). Status \`Installed\`.
3. The tenant connects the installation. **ApiKey** apps: the API key and (when the app subscribes
   to events) the webhook signing secret are minted at once; status \`Connected\`. **OAuth2** apps:
   status \`Connecting\` and an \`authorizationUrl\` to which the dashboard sends the restaurant's
   browser; the partner redirects back to the callback, the service exchanges the code (PKCE S256)
   at the partner's token endpoint, stores the tokens, mints the credentials and answers them to
   the browser; status \`Connected\`. Authorization states expire after 10 minutes and work once.
4. Reconnect mints new credentials and revokes the old ones (for OAuth2 when the callback
   completes); rotation replaces one credential (the previous API key may keep working for an
   overlap the tenant chooses, see Credentials); disconnect revokes the API key and deletes the
   signing secret and OAuth tokens; uninstall (DELETE) revokes everything and removes the
   installation, after which the app may be installed again.

## Credentials

The API key (\`KEY_ID.SECRET\`) and the webhook signing secret are shown **once**, in the response
that mints them, and can never be retrieved again; only the public key id (\`apiKeyId\`) appears
later. Every response that carries credentials has \`Cache-Control: no-store\`.

\`POST …/api-key/rotate\` takes an optional \`overlapSeconds\` (0 to 604800, i.e. 7 days; default 0): the
previous API key keeps working that long (never longer than it would have anyway), so the partner
can switch to the new key without a gap; \`previousKeyExpiresAt\` in the answer says until when. With
0 the previous key stops at once. Reconnect, disconnect and uninstall end every key at once, an
overlapping one included. A key past its end is refused like a revoked one (401).

The webhook signing secret is \`whsec_\` and the standard base64 of 32 random bytes (44 characters,
\`=\` padded): the same string verifies \`X-Marketplace-Signature\` and, with a Standard Webhooks
library, \`webhook-signature\` (see the Partner API). One issued earlier is base64url without padding;
rotating it gives one of the current shape. \`POST …/webhook-secret/rotate\` replaces it at once for
\`X-Marketplace-Signature\`, while \`webhook-signature\` carries a signature with the previous
secret as well for ${SECRET_OVERLAP_HOURS} hours.

## Audit log

Every POST, PUT, PATCH and DELETE of the administrator and tenant APIs (the parts other services
own included) is recorded after it is answered, whatever the outcome: who (role, \`sub\`, tenant, the
token's id), the operation (method and route pattern), the identifiers in the path, the status, the
time, the client address and the request id. Never a body, a header or a secret. Administrators
read it at \`GET /api/admin/v1/audit-events\`, newest first.
`.trim();

// ---------------------------------------------------------------------------------------------
// Paths
// ---------------------------------------------------------------------------------------------

const A = '/api/admin/v1';
const T = '/api/tenant/v1';

const adminPaths: Json = {
  [`${A}/tenants`]: {
    post: admin({
      tag: 'Tenants',
      operationId: 'createTenant',
      summary: 'Create a tenant',
      requestBody: body('TenantInput', 'The tenant to create.'),
      responses: {
        '201': jsonResponse('The tenant was created.', ref('Tenant')),
        '400': BAD_REQUEST,
        '409': conflict('`marketplace.tenant.slug_taken`'),
      },
    }),
    get: admin({
      tag: 'Tenants',
      operationId: 'listTenants',
      summary: 'List tenants',
      parameters: [parameterRef('SlugFilter')],
      responses: {
        '200': jsonResponse('The tenants (only the one with this slug when `slug` is given).', arrayOf(ref('Tenant'))),
        '400': BAD_REQUEST,
      },
    }),
  },
  [`${A}/tenants/{tenantId}`]: {
    get: admin({
      tag: 'Tenants',
      operationId: 'getTenant',
      summary: 'Get a tenant',
      parameters: [parameterRef('TenantId')],
      responses: { '200': jsonResponse('The tenant.', ref('Tenant')), '404': NOT_FOUND },
    }),
  },
  [`${A}/tenants/{tenantId}/tokens`]: {
    post: admin({
      tag: 'Tenants',
      operationId: 'issueTenantToken',
      summary: 'Issue a tenant bearer token',
      description:
        'A `tenantToken` bound to this tenant, for its store dashboard, with an id (`jti`) by which it is listed and ' +
        'revoked. It lives `expiresInSeconds` (default 30 days): at most 30 days, or up to 365 with ' +
        '`allowLongerThan30Days: true`; more is 400 `request.invalid` naming `expiresInSeconds`. The token is stored ' +
        'nowhere: only its id, tenant, issuer and dates.',
      parameters: [parameterRef('TenantId')],
      requestBody: body('TenantTokenRequest', 'Optional; without a body the token lives 30 days.', false),
      responses: {
        '201': jsonResponse('The token. Shown once.', ref('TenantToken'), NO_STORE),
        '400': BAD_REQUEST,
        '404': NOT_FOUND,
      },
    }),
    get: admin({
      tag: 'Tenants',
      operationId: 'listTenantTokens',
      summary: "List a tenant's minted tokens",
      description:
        'The tokens minted for this tenant by `issueTenantToken`, newest first (at most 200): ids and dates, never a token.',
      parameters: [parameterRef('TenantId')],
      responses: {
        '200': jsonResponse("The tenant's tokens.", arrayOf(ref('TenantTokenRecord'))),
        '404': NOT_FOUND,
      },
    }),
  },
  [`${A}/tenants/{tenantId}/tokens/{tokenId}/revoke`]: {
    post: admin({
      tag: 'Tenants',
      operationId: 'revokeTenantToken',
      summary: 'Revoke a tenant token',
      description:
        'The token is refused (401) from now on: at once by the gateway instance that answers, by every other within ' +
        "its revocation refresh (5 seconds by default). The tenant's other tokens keep working. Revoking a revoked " +
        'token again returns it unchanged.',
      parameters: [parameterRef('TenantId'), parameterRef('TokenId')],
      responses: {
        '200': jsonResponse('The revoked token (its record).', ref('TenantTokenRecord')),
        '404': problemResponse(
          'Not found (`resource.not_found`): no such tenant, or no such token of this tenant (indistinguishable).',
        ),
      },
    }),
  },
  [`${A}/audit-events`]: {
    get: admin({
      tag: 'Audit',
      operationId: 'listAuditEvents',
      summary: 'Read the audit log',
      description:
        'Every mutation of the administrator and tenant APIs, newest first. For the next page pass the `id` of the ' +
        'last event as `before`; a page shorter than `limit` is the last.',
      parameters: [parameterRef('AuditTenantFilter'), parameterRef('AuditBefore'), parameterRef('AuditLimit')],
      responses: {
        '200': jsonResponse('The events, newest first.', arrayOf(ref('AuditEvent'))),
        '400': BAD_REQUEST,
      },
    }),
  },
  [`${A}/apps`]: {
    post: admin({
      tag: 'Apps',
      operationId: 'createApp',
      summary: 'Create an app',
      requestBody: body('AppInput', 'The app to create.'),
      responses: {
        '201': jsonResponse('The app was created.', ref('App')),
        '400': BAD_REQUEST,
        '409': conflict('`marketplace.app.slug_taken`'),
      },
    }),
    get: admin({
      tag: 'Apps',
      operationId: 'listApps',
      summary: 'List apps',
      parameters: [parameterRef('SlugFilter')],
      responses: {
        '200': jsonResponse('The apps (only the one with this slug when `slug` is given).', arrayOf(ref('App'))),
        '400': BAD_REQUEST,
      },
    }),
  },
  [`${A}/apps/{appId}`]: {
    get: admin({
      tag: 'Apps',
      operationId: 'getApp',
      summary: 'Get an app with its contract versions',
      parameters: [parameterRef('AppId')],
      responses: {
        '200': jsonResponse('The app and all its contract versions, Draft and Published.', ref('AppDetail')),
        '404': NOT_FOUND,
      },
    }),
  },
  [`${A}/apps/{appId}/versions`]: {
    post: admin({
      tag: 'Contract versions',
      operationId: 'createContractVersion',
      summary: 'Add a contract version',
      description: 'Creates a Draft with the next version number of the app (starting at 1).',
      parameters: [parameterRef('AppId')],
      requestBody: body('ContractVersionInput', 'The contract.'),
      responses: {
        '201': jsonResponse('The Draft contract version.', ref('ContractVersion')),
        '400': BAD_REQUEST,
        '404': NOT_FOUND,
        ...BUSY,
      },
    }),
  },
  [`${A}/apps/{appId}/versions/{version}`]: {
    get: admin({
      tag: 'Contract versions',
      operationId: 'getContractVersion',
      summary: 'Get a contract version',
      parameters: [parameterRef('AppId'), parameterRef('Version')],
      responses: { '200': jsonResponse('The contract version.', ref('ContractVersion')), '404': NOT_FOUND },
    }),
    put: admin({
      tag: 'Contract versions',
      operationId: 'replaceContractVersion',
      summary: 'Replace a Draft contract version',
      description:
        'Replaces the whole contract of a Draft (the OAuth2 client secret included). A published version is immutable.',
      parameters: [parameterRef('AppId'), parameterRef('Version')],
      requestBody: body('ContractVersionInput', 'The contract.'),
      responses: {
        '200': jsonResponse('The updated Draft.', ref('ContractVersion')),
        '400': BAD_REQUEST,
        '404': NOT_FOUND,
        '409': conflict('`marketplace.contract_version.published` (a published version is immutable)'),
        ...BUSY,
      },
    }),
  },
  [`${A}/apps/{appId}/versions/{version}/publish`]: {
    post: admin({
      tag: 'Contract versions',
      operationId: 'publishContractVersion',
      summary: 'Publish a contract version',
      description:
        'Status becomes Published and `publishedAt` is set; from then on the version is immutable and tenants can install it. Publishing again returns it unchanged.',
      parameters: [parameterRef('AppId'), parameterRef('Version')],
      responses: {
        '200': jsonResponse('The published contract version.', ref('ContractVersion')),
        '404': NOT_FOUND,
        ...BUSY,
      },
    }),
  },
};

const INSTALLATION_NOT_FOUND = problemResponse(
  "Not found (`resource.not_found`): no such installation, or another tenant's (indistinguishable).",
);

const tenantPaths: Json = {
  [`${T}/apps`]: {
    get: tenant({
      tag: 'App directory',
      operationId: 'listAvailableApps',
      summary: 'List installable apps',
      description:
        'Apps with at least one published contract version, each with its published versions (ascending). Apps without a published version are not listed.',
      responses: { '200': jsonResponse('The installable apps.', arrayOf(ref('AvailableApp'))) },
    }),
  },
  [`${T}/installations`]: {
    post: tenant({
      tag: 'Installations',
      operationId: 'installApp',
      summary: 'Install an app (and consent to a contract version)',
      description:
        'Install and consent are one step: the request names the exact published contract version the tenant accepts. The installation starts in status Installed.',
      requestBody: body('InstallationInput', 'The app and the published contract version.'),
      responses: {
        '201': jsonResponse('The installation.', ref('Installation')),
        '400': BAD_REQUEST,
        '404': problemResponse('Not found (`resource.not_found`): the app or the version is unknown or not published.'),
        '409': conflict('`marketplace.installation.exists` (the tenant already has this app installed)'),
      },
    }),
    get: tenant({
      tag: 'Installations',
      operationId: 'listInstallations',
      summary: "List the tenant's installations",
      responses: { '200': jsonResponse("The tenant's installations.", arrayOf(ref('Installation'))) },
    }),
  },
  [`${T}/installations/{installationId}`]: {
    get: tenant({
      tag: 'Installations',
      operationId: 'getInstallation',
      summary: 'Get an installation',
      parameters: [parameterRef('InstallationId')],
      responses: { '200': jsonResponse('The installation.', ref('Installation')), '404': INSTALLATION_NOT_FOUND },
    }),
    delete: tenant({
      tag: 'Installations',
      operationId: 'uninstallApp',
      summary: 'Uninstall an app',
      description:
        'Revokes everything (API key, webhook signing secret, OAuth tokens, pending authorizations). The installation is gone from the ' +
        "tenant's lists and the app may be installed again. Allowed in every status.",
      parameters: [parameterRef('InstallationId')],
      responses: { '204': { description: 'Uninstalled.' }, '404': INSTALLATION_NOT_FOUND, ...BUSY },
    }),
  },
  [`${T}/installations/{installationId}/connect`]: {
    post: tenant({
      tag: 'Installations',
      operationId: 'connectInstallation',
      summary: 'Connect an installation',
      description:
        'Allowed when the installation is Installed, Connecting (an OAuth2 authorization that was not completed: a new ' +
        '`authorizationUrl` is issued) or Disconnected; Connected is 409 `marketplace.installation.already_connected`.\n\n' +
        '- **ApiKey** apps: mints the credentials; status Connected; `credentials` set, `authorizationUrl` null.\n' +
        "- **OAuth2** apps: status Connecting; `credentials` null and `authorizationUrl` set: send the restaurant's browser there. " +
        'The credentials are shown by the callback.\n\n' +
        'Scopes are granted from the consented contract version when the connection completes.',
      parameters: [parameterRef('InstallationId')],
      responses: {
        '200': jsonResponse('Connected (ApiKey) or authorization started (OAuth2).', ref('ConnectResult'), NO_STORE),
        '404': INSTALLATION_NOT_FOUND,
        '409': conflict('`marketplace.installation.already_connected`'),
        ...BUSY,
      },
    }),
  },
  [`${T}/installations/{installationId}/reconnect`]: {
    post: tenant({
      tag: 'Installations',
      operationId: 'reconnectInstallation',
      summary: 'Reconnect an installation',
      description:
        'Allowed when Connected or Disconnected (Installed or Connecting: 409 `marketplace.installation.not_connected`; use connect). ' +
        'Mints new credentials and revokes the old ones.\n\n' +
        '- **ApiKey** apps: at once; status Connected; `credentials` set.\n' +
        '- **OAuth2** apps: `authorizationUrl` set, `credentials` null; the installation keeps its status and current credentials ' +
        'until the callback completes, which mints the new credentials and revokes the old ones.',
      parameters: [parameterRef('InstallationId')],
      responses: {
        '200': jsonResponse('Reconnected (ApiKey) or authorization started (OAuth2).', ref('ConnectResult'), NO_STORE),
        '404': INSTALLATION_NOT_FOUND,
        '409': conflict('`marketplace.installation.not_connected`'),
        ...BUSY,
      },
    }),
  },
  [`${T}/installations/{installationId}/api-key/rotate`]: {
    post: tenant({
      tag: 'Installations',
      operationId: 'rotateApiKey',
      summary: 'Rotate the API key',
      description:
        'Only when Connected. Mints a new API key; the previous one stops at once, or keeps working for ' +
        '`overlapSeconds` (up to 7 days) so that the partner can switch without a gap. The webhook signing secret is ' +
        'unchanged.',
      parameters: [parameterRef('InstallationId')],
      requestBody: body(
        'InstallationApiKeyRotateRequest',
        'Optional; without a body (or `overlapSeconds`) the previous key stops at once.',
        false,
      ),
      responses: {
        '200': jsonResponse('The new API key. Shown once.', ref('ApiKeyRotationResult'), NO_STORE),
        '400': BAD_REQUEST,
        '404': INSTALLATION_NOT_FOUND,
        '409': conflict('`marketplace.installation.not_connected`'),
        ...BUSY,
      },
    }),
  },
  [`${T}/installations/{installationId}/webhook-secret/rotate`]: {
    post: tenant({
      tag: 'Installations',
      operationId: 'rotateWebhookSecret',
      summary: 'Rotate the webhook signing secret',
      description:
        'Only when Connected and the app subscribes to events. Replaces the signing secret at once for ' +
        '`X-Marketplace-Signature`; the Standard Webhooks `webhook-signature` carries a signature with the previous ' +
        `secret too for ${SECRET_OVERLAP_HOURS} hours. The API key is unchanged.`,
      parameters: [parameterRef('InstallationId')],
      responses: {
        '200': jsonResponse(
          'The new webhook signing secret. Shown once.',
          ref('WebhookSecretRotationResult'),
          NO_STORE,
        ),
        '404': INSTALLATION_NOT_FOUND,
        '409': conflict(
          '`marketplace.installation.not_connected`, `marketplace.installation.no_events` (nothing subscribed)',
        ),
        ...BUSY,
      },
    }),
  },
  [`${T}/installations/{installationId}/disconnect`]: {
    post: tenant({
      tag: 'Installations',
      operationId: 'disconnectInstallation',
      summary: 'Disconnect an installation',
      description:
        'Status Disconnected: the API key is revoked, the webhook signing secret and the OAuth tokens are deleted and a pending ' +
        'authorization no longer works. Allowed in every status; disconnecting a Disconnected installation returns it unchanged. ' +
        'Connect or reconnect again later.',
      parameters: [parameterRef('InstallationId')],
      responses: {
        '200': jsonResponse('The disconnected installation.', ref('Installation')),
        '404': INSTALLATION_NOT_FOUND,
        ...BUSY,
      },
    }),
  },
};

const SIGNATURE_SCHEME =
  'Signed like our own webhooks: `X-Processor-Timestamp` is the Unix time of the send in seconds, and ' +
  '`X-Processor-Signature` the lowercase hex HMAC-SHA256, keyed with the processor secret (the whole string, as UTF-8), ' +
  'over `{timestamp}.{raw body}`, the exact bytes sent. A timestamp more than 300 s from the server clock, either way, is refused.';

const processorPaths: Json = {
  [`${T}/payment-processor`]: {
    get: tenant({
      tag: 'Payment processor',
      operationId: 'getPaymentProcessor',
      summary: "The payment processor's settings",
      description:
        'Whether the tenant has a processor secret, where its processor sends notifications, and until when the previous ' +
        'secret still works after a rotation. Never the secret.',
      responses: { '200': jsonResponse('The settings.', ref('PaymentProcessorSettings')) },
    }),
  },
  [`${T}/payment-processor/secret/rotate`]: {
    post: tenant({
      tag: 'Payment processor',
      operationId: 'rotatePaymentProcessorSecret',
      summary: 'Create or rotate the processor secret',
      description:
        'A new secret, shown once, to enter in the processor. The secret it replaces keeps working for 24 hours, so that ' +
        'no notification is refused while the processor is switched over. Two rotations at the same moment: the later wins.',
      responses: {
        '200': jsonResponse(
          'The new secret (shown once) and the settings.',
          ref('PaymentProcessorSecretRotation'),
          NO_STORE,
        ),
      },
    }),
  },
  [`${T}/payment-processor/secret`]: {
    delete: tenant({
      tag: 'Payment processor',
      operationId: 'revokePaymentProcessorSecret',
      summary: 'Revoke every processor secret',
      description:
        'The current and the previous secret stop working at once: notifications get 401 until a new rotation.',
      responses: { '204': { description: 'Revoked.' } },
    }),
  },
  '/api/payments/v1/tenants/{tenantId}/notifications': {
    post: {
      tags: ['Payment processor'],
      operationId: 'notifyPayment',
      summary: "The tenant's payment processor confirms a payment",
      description:
        "Server to server, from the processor of the tenant's card-on-delivery terminals. " +
        SIGNATURE_SCHEME +
        '\n\n`payment.succeeded` for an order paid by card on delivery, of its grand total in its currency, marks the order ' +
        'Paid (from any status: a Cancelled or Rejected order then shows its refund due). The first confirmation of an order ' +
        'sends the Partner API webhook `payment.completed`; a later one (another event id) is kept with the order and ' +
        'announces nothing (`already_confirmed`). Every other event type is acknowledged with `ignored` and changes nothing.' +
        '\n\nIdempotent by `eventId`: the same event sent again gets the first answer again (a refusal included); the same id ' +
        'with another body is 409 `payment.event_conflict`. Properties not listed are accepted and ignored.',
      security: [{ processorSignature: [], processorTimestamp: [] }],
      parameters: [parameterRef('TenantId')],
      requestBody: body('ProcessorNotification', 'The notification.'),
      responses: {
        '200': jsonResponse('Applied, already applied, or ignored.', ref('ProcessorNotificationResult')),
        '400': BAD_REQUEST,
        '401': problemResponse(
          '`auth.unauthenticated`: a signature header is missing, the timestamp is stale, the signature matches no live ' +
            'secret of the tenant, or the tenant is unknown or has no secret (all alike).',
        ),
        '404': problemResponse("`resource.not_found`: no such order of this tenant (another tenant's order included)."),
        '409': conflict('`payment.event_conflict` (the event id was received with another body)'),
        '422': problemResponse(
          'The notification does not fit the order; nothing changes. Codes: `payment.method_not_card` (a Cash order: the ' +
            'restaurant records it), `payment.currency_mismatch`, `payment.amount_mismatch` (not the grand total, to the minor unit).',
        ),
        '429': problemResponse('`rate_limit.exceeded`: counted per client IP with the public pages.'),
        ...BUSY,
      },
    },
  },
};

const oauthPaths: Json = {
  '/api/marketplace/oauth/callback': {
    get: op('none', {
      tag: 'OAuth',
      operationId: 'completeOAuthAuthorization',
      summary: 'OAuth2 authorization callback',
      description:
        "The partner's authorization server redirects the restaurant's browser here (the redirect URI pre-registered by a " +
        'platform administrator). No bearer token: the `state` identifies the pending connect or reconnect. States expire ' +
        "after 10 minutes and work once. The service exchanges `code` at the partner's token endpoint, stores the tokens, " +
        'mints the credentials (revoking the previous ones on a reconnect) and answers them once.',
      parameters: [
        {
          name: 'code',
          in: 'query',
          required: false,
          description: 'Authorization code (on success).',
          schema: { type: 'string' },
        },
        {
          name: 'state',
          in: 'query',
          required: true,
          description: 'The state issued with the authorization URL.',
          schema: { type: 'string', minLength: 1 },
        },
        {
          name: 'error',
          in: 'query',
          required: false,
          description: "The partner's error code (on failure), for example `access_denied`.",
          schema: { type: 'string' },
        },
        {
          name: 'error_description',
          in: 'query',
          required: false,
          description: "The partner's error text (on failure).",
          schema: { type: 'string' },
        },
      ],
      responses: {
        '200': jsonResponse(
          'Connected: the installation and its credentials. Shown once.',
          ref('OAuthCallbackResult'),
          NO_STORE,
        ),
        '400': problemResponse(
          'Codes: `oauth.state_invalid` (unknown, expired or used state, or missing parameters), `oauth.authorization_denied` ' +
            "(the partner's server returned an error such as access_denied).",
        ),
        '502': problemResponse("`oauth.token_exchange_failed`: the partner's token endpoint failed or answered badly."),
        '504': problemResponse("`oauth.token_exchange_timeout`: the partner's token endpoint did not answer in time."),
      },
    }),
  },
};

// ---------------------------------------------------------------------------------------------
// Schemas
// ---------------------------------------------------------------------------------------------

const appProperties: Record<string, Json> = {
  id: uuid(),
  slug: slug(),
  name: name(),
  description: nullableStr(),
  createdAt: dateTime(),
};

const oauth2ResponseProperties: Record<string, Json> = {
  authorizationEndpoint: outboundUrl("The partner's authorization endpoint."),
  tokenEndpoint: outboundUrl("The partner's token endpoint."),
  clientId: str("Client id issued by the partner's OAuth server."),
  scopes: arrayOf(str(), 'Scopes sent in the authorization request.'),
  tokenEndpointAuthMethod: ref('TokenEndpointAuthMethod'),
};

const schemas: Record<string, Json> = {
  // Enumerations -------------------------------------------------------------------------------
  ScopeCode: {
    type: 'string',
    enum: [...SCOPES],
    description: 'Partner API scope. Delivery.Read and Payments.Read are accepted but grant nothing.',
  },
  EventType: {
    type: 'string',
    enum: [...SUBSCRIBABLE_EVENTS],
    description:
      'Subscribable event type. orders.updated and catalog.updated are reserved: accepted, never emitted. system.test cannot be subscribed to.',
  },
  AuthType: {
    type: 'string',
    enum: [...AUTH_TYPES],
    description: 'How the service authenticates to the partner at connect time.',
  },
  TokenEndpointAuthMethod: { type: 'string', enum: ['client_secret_basic', 'client_secret_post'] },
  ContractVersionStatus: { type: 'string', enum: ['Draft', 'Published'] },
  InstallationStatus: { type: 'string', enum: ['Installed', 'Connecting', 'Connected', 'Disconnected'] },

  // Request bodies: the contracts' schemas, which the routes validate with ----------------------
  TenantInput: requestSchemas.TenantInput,
  TenantTokenRequest: requestSchemas.TenantTokenRequest,
  AppInput: requestSchemas.AppInput,
  ContractVersionInput: requestSchemas.ContractVersionInput,
  OAuth2Input: OAuth2InputSchema,
  InstallationInput: requestSchemas.InstallationInput,
  InstallationApiKeyRotateRequest: requestSchemas.InstallationApiKeyRotateRequest,

  // Tenants ------------------------------------------------------------------------------------
  Tenant: response({
    id: uuid(),
    slug: slug(),
    name: name(),
    currencyCode: str(),
    defaultLanguage: str(),
    sandbox: { type: 'boolean', description: 'A sandbox tenant: its installations drive scripted scenarios.' },
    createdAt: dateTime(),
  }),
  TenantToken: response({
    id: uuid('The token id (its `jti` claim): how it is listed and revoked.'),
    token: str('Bearer token (`tenantToken`) bound to the tenant.'),
    tokenType: { type: 'string', const: 'Bearer' },
    expiresAt: dateTime(),
  }),
  TenantTokenRecord: response(
    {
      id: uuid('The token id (its `jti` claim).'),
      tenantId: uuid(),
      issuedBy: str('The `sub` of the administrator who minted it.'),
      createdAt: dateTime(),
      expiresAt: dateTime(),
      revokedAt: nullableDateTime('When it was revoked; null while it is not.'),
      revokedBy: nullableStr('The `sub` of the administrator who revoked it.'),
    },
    'A minted tenant token: never the token itself.',
  ),

  // Audit log -----------------------------------------------------------------------------------
  AuditEvent: response(
    {
      id: uuid('A UUID version 7: ids sort by time. Pass the last one of a page as `before`.'),
      at: dateTime('When the request arrived.'),
      tenantId: nullableUuid(
        "The tenant the action concerns: the caller's (tenant API) or the one in the path (administrator API); null when none.",
      ),
      actor: response({
        role: { type: 'string', enum: ['admin', 'tenant'] },
        sub: str("The token's `sub`."),
        tenantId: nullableUuid('The tenant of a tenant token; null for an administrator.'),
        tokenId: nullableStr("The token's id (`jti`); null for a token without one."),
      }),
      action: str('Method and route pattern, for example `POST /api/tenant/v1/installations/:installationId/connect`.'),
      method: { type: 'string', enum: ['POST', 'PUT', 'PATCH', 'DELETE'] },
      route: str('The route pattern (never the raw path).'),
      target: {
        type: 'object',
        additionalProperties: { type: 'string' },
        description:
          "The path's identifiers by parameter name (a forwarded route's tail as `path`); a value not shaped like an id is `…`.",
      },
      status: { type: 'integer', format: 'int32', description: 'The status code of the answer.' },
      ip: str("The client's address as the gateway sees it."),
      requestId: str('The `X-Request-Id` of the request.'),
    },
    'One mutation of the administrator or tenant API. Never a body, a header or a secret.',
  ),

  // Apps and contract versions -----------------------------------------------------------------
  App: response(appProperties),
  AppDetail: response({ ...appProperties, versions: arrayOf(ref('ContractVersion'), 'All versions, ascending.') }),
  OAuth2Config: response({
    ...oauth2ResponseProperties,
    clientSecretSet: bool('Whether a client secret is stored; the secret is never returned.'),
  }),
  ContractVersion: response({
    appId: uuid(),
    version: versionNumber(),
    status: ref('ContractVersionStatus'),
    authType: ref('AuthType'),
    scopes: arrayOf(ref('ScopeCode')),
    subscribedEvents: arrayOf(ref('EventType')),
    webhookUrl: nullableStr(),
    oauth2: nullableRef('OAuth2Config'),
    createdAt: dateTime(),
    updatedAt: dateTime(),
    publishedAt: nullableDateTime(),
  }),
  ContractVersionSummary: response({
    version: versionNumber(),
    authType: ref('AuthType'),
    scopes: arrayOf(ref('ScopeCode')),
    subscribedEvents: arrayOf(ref('EventType')),
    webhookUrl: nullableStr(),
    publishedAt: dateTime(),
  }),
  AvailableApp: response({
    id: uuid(),
    slug: slug(),
    name: name(),
    description: nullableStr(),
    versions: arrayOf(ref('ContractVersionSummary'), 'Published versions, ascending.'),
  }),

  // Installations ------------------------------------------------------------------------------
  Installation: response({
    id: uuid(),
    tenantId: uuid(),
    appId: uuid(),
    appName: str(),
    contractVersion: versionNumber('The consented contract version.'),
    authType: ref('AuthType'),
    status: ref('InstallationStatus'),
    scopes: arrayOf(ref('ScopeCode'), 'Granted when the connection completes; empty before.'),
    subscribedEvents: arrayOf(ref('EventType')),
    webhookUrl: nullableStr(),
    apiKeyId: nullableStr('The public key id of the active API key only; null when there is none.'),
    webhookSecretSet: bool('Whether a webhook signing secret is active.'),
    oauthConnected: bool('Whether OAuth2 tokens from the partner are stored.'),
    installedAt: dateTime(),
    connectedAt: nullableDateTime('When the current connection completed; null when not connected.'),
    updatedAt: dateTime(),
  }),
  Credentials: response(
    {
      apiKey: nullableStr(
        '`KEY_ID.SECRET` for `Authorization: ApiKey <KEY_ID>.<API_SECRET>`. Shown once, never retrievable.',
      ),
      webhookSigningSecret: nullableStr(
        '`whsec_` and the standard base64 of 32 random bytes. Shown once, never retrievable; null when the app ' +
          'subscribes to no events.',
      ),
    },
    'Secrets shown once; the response carries `Cache-Control: no-store`.',
  ),
  ConnectResult: response(
    {
      installation: ref('Installation'),
      credentials: {
        ...nullableRef('Credentials'),
        description: 'ApiKey apps: the new credentials. OAuth2 apps: null (the callback shows them).',
      },
      authorizationUrl: {
        type: ['string', 'null'],
        format: 'uri',
        description: "OAuth2 apps: where to send the restaurant's browser. ApiKey apps: null.",
      },
    },
    'ApiKey apps: `credentials` set and `authorizationUrl` null. OAuth2 apps: `credentials` null and `authorizationUrl` set.',
  ),
  ApiKeyRotationResult: response({
    installation: ref('Installation'),
    credentials: response({
      apiKey: str('The new `KEY_ID.SECRET`. Shown once.'),
      webhookSigningSecret: { type: 'null' },
    }),
    previousKeyExpiresAt: nullableDateTime(
      'Until when the previous API key keeps working (the overlap); null when it stopped at once.',
    ),
  }),
  WebhookSecretRotationResult: response({
    installation: ref('Installation'),
    credentials: response({
      apiKey: { type: 'null' },
      webhookSigningSecret: str(
        'The new signing secret (`whsec_` and the standard base64 of 32 random bytes). Shown once.',
      ),
    }),
  }),
  OAuthCallbackResult: response({ installation: ref('Installation'), credentials: ref('Credentials') }),

  // Payment processor ---------------------------------------------------------------------------
  PaymentProcessorSettings: response({
    configured: bool('Whether a processor secret exists.'),
    notificationUrl: str('Where the processor posts its notifications.'),
    rotatedAt: nullable(dateTime(), 'When the current secret was made; null without one.'),
    previousValidUntil: nullable(dateTime(), 'Until when the previous secret still works; null when it does not.'),
  }),
  PaymentProcessorSecretRotation: response({
    secret: str('The new processor secret. Shown once.'),
    configured: { type: 'boolean', const: true },
    notificationUrl: str('Where the processor posts its notifications.'),
    rotatedAt: dateTime(),
    previousValidUntil: nullable(dateTime(), 'Until when the replaced secret still works; null on the first rotation.'),
  }),
  ProcessorNotification: requestSchemas.ProcessorNotification,
  ProcessorNotificationResult: {
    oneOf: [
      response({
        eventId: str(),
        result: { enum: ['confirmed', 'already_confirmed'] },
        orderId: uuid(),
        orderNumber: str(),
        paymentStatus: { type: 'integer', const: 2, description: 'Paid.' },
      }),
      response({ eventId: str(), result: { const: 'ignored' } }),
    ],
  },

  // Errors -------------------------------------------------------------------------------------
  Problem: partnerApiSchemas.Problem!,
};

// ---------------------------------------------------------------------------------------------
// The document
// ---------------------------------------------------------------------------------------------

/**
 * An operation with a path parameter can be sent a path that is not canonical (an encoded dot,
 * slash, backslash or NUL in the parameter): the HTTP layer answers it 400 `request.path_invalid`
 * before routing. Each such operation documents that 400 (as part of its own 400 when it has one).
 */
function withPathRefusals(paths: Json): Json {
  return Object.fromEntries(
    Object.entries(paths as Record<string, Record<string, { responses?: Record<string, Json> }>>).map(
      ([path, item]) => [
        path,
        path.includes('{')
          ? Object.fromEntries(
              Object.entries(item).map(([method, operation]) => [
                method,
                operation.responses && !operation.responses['400']
                  ? { ...operation, responses: { ...operation.responses, '400': responseRef('PathInvalid') } }
                  : operation,
              ]),
            )
          : item,
      ],
    ),
  );
}

const idParameter = (paramName: string): Json => ({ name: paramName, in: 'path', required: true, schema: uuid() });

export const marketplaceApiDocument: Json = {
  openapi: '3.1.0',
  info: {
    title: 'Marketplace administrator and tenant API',
    version: '1.0.0',
    summary: 'Tenants, apps, contract versions, installations and their credentials.',
    description: DESCRIPTION,
  },
  servers: [{ url: '/', description: 'The deployment serving this document.' }],
  tags: [
    { name: 'Tenants', description: 'Administrator: tenants and their bearer tokens.' },
    { name: 'Apps', description: 'Administrator: the app registry.' },
    {
      name: 'Contract versions',
      description: 'Administrator: contract versions (Draft, then Published and immutable).',
    },
    { name: 'App directory', description: 'Tenant: apps that can be installed.' },
    { name: 'Installations', description: "Tenant: the tenant's installations and their credentials." },
    { name: 'Audit', description: 'Administrator: the audit log of administrator and tenant mutations.' },
    { name: 'OAuth', description: "The restaurant's browser returning from a partner's OAuth2 server." },
    {
      name: 'Payment processor',
      description:
        'Tenant: the secret its payment processor signs with; the processor: confirmations of card-on-delivery payments.',
    },
  ],
  paths: withPathRefusals({ ...adminPaths, ...tenantPaths, ...processorPaths, ...oauthPaths }),
  components: {
    securitySchemes: {
      adminToken: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description: 'Signed bearer token (JWS, HS256) with `role` = `admin`. Required on every /api/admin/v1 route.',
      },
      tenantToken: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description:
          'Signed bearer token (JWS, HS256) with `role` = `tenant`, bound to one tenant (`tid`). Required on every /api/tenant/v1 route.',
      },
      processorSignature: {
        type: 'apiKey',
        in: 'header',
        name: 'X-Processor-Signature',
        description: SIGNATURE_SCHEME,
      },
      processorTimestamp: {
        type: 'apiKey',
        in: 'header',
        name: 'X-Processor-Timestamp',
        description: 'Unix time of the send, in seconds (decimal); signed with the body.',
      },
    },
    parameters: {
      TenantId: idParameter('tenantId'),
      AppId: idParameter('appId'),
      InstallationId: idParameter('installationId'),
      TokenId: idParameter('tokenId'),
      AuditTenantFilter: {
        name: 'tenantId',
        in: 'query',
        required: false,
        description:
          "Only the events concerning this tenant (its own and administrators' actions on it). A malformed value is 400.",
        schema: uuid(),
      },
      AuditBefore: {
        name: 'before',
        in: 'query',
        required: false,
        description:
          'Only events older than this one: the `id` of the last event of the previous page (a UUID v7; any other value is 400).',
        schema: {
          type: 'string',
          format: 'uuid',
          pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-7[0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$',
        },
      },
      AuditLimit: {
        name: 'limit',
        in: 'query',
        required: false,
        description: 'Most events to return, 1 to 200.',
        schema: { type: 'integer', minimum: 1, maximum: 200, default: 50 },
      },
      Version: { name: 'version', in: 'path', required: true, schema: versionNumber() },
      SlugFilter: {
        name: 'slug',
        in: 'query',
        required: false,
        description:
          'Only the entry with exactly this slug (an empty array when there is none). A malformed or repeated `slug` is 400 `request.invalid`, never the full list.',
        schema: slug(),
      },
    },
    headers: {
      CacheControlNoStore: {
        description: 'The response carries secrets: never stored by caches.',
        required: true,
        schema: { type: 'string', const: 'no-store' },
      },
    },
    responses: {
      BadRequest: problemResponse(
        'Bad request. Codes: `request.invalid` (validation failed; `errors` maps field paths to messages), `request.malformed` (the body is not JSON), `request.path_invalid` (the path is not canonical: an encoded dot, slash, backslash or NUL, a dot or empty segment).',
      ),
      PathInvalid: problemResponse(
        '`request.path_invalid`: the path is not canonical (an encoded dot, slash, backslash or NUL, a dot or empty segment); refused before routing.',
      ),
      Unauthorized: problemResponse(
        '`auth.unauthenticated`: the token is missing, malformed, expired or revoked, or has the wrong role.',
      ),
      NotFound: problemResponse('`resource.not_found`.'),
    },
    schemas,
  },
};
