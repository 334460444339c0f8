/**
 * OpenAPI 3.1 description of the Marketplace Partner API v1, served publicly by the gateway at
 * `GET /api/partner/v1/openapi.json`. Source of truth: the Partner API v1 specification
 * (`shared/spec/partner-api-v1.md`); the decisions the specification leaves open are stated in
 * `info.description` and implemented by the gateway.
 *
 * The document is plain data: the operations are written here, the schemas are the owners'
 * contracts. The response builders are exported for the marketplace API document
 * (`marketplace-api.ts`).
 */
import {
  ASSIGNMENT_STATUS,
  DELIVERY_LIMITS,
  IDEMPOTENCY_KEY,
  arrayOf,
  partnerApiSchemas,
  ref,
  requestSchemas,
  SANDBOX_SCENARIOS,
  uuid,
} from '@marketplace/contracts';
import { problemTypeUri } from '@marketplace/http';
import { WEBHOOK_SECRET_OVERLAP_SECONDS } from '../../domain/api-key';
import { SANDBOX } from '../../domain/sandbox';
import {
  EXTENSION_PARAMETERS,
  webhookDeliveryPaths,
  sandboxPaths,
  SANDBOX_TAG,
  SANDBOX_TAG_DESCRIPTION,
  WEBHOOK_DELIVERIES_TAG,
  WEBHOOK_DELIVERIES_TAG_DESCRIPTION,
} from './partner-extension-api';

/** How long a rotated-out webhook signing secret goes on signing `webhook-signature`. */
export const SECRET_OVERLAP_HOURS = WEBHOOK_SECRET_OVERLAP_SECONDS / 3600;

/** A JSON object of the document (schema, operation, response, ...). */
export type Json = Record<string, unknown>;

// ---------------------------------------------------------------------------------------------
// Response builders
// ---------------------------------------------------------------------------------------------

const PROBLEM_JSON = 'application/problem+json';

/** An error response whose body is a Problem; `description` lists the codes it can carry. */
export function problemResponse(description: string, examples?: Record<string, Json>): Json {
  const media: Json = { schema: ref('Problem') };
  if (examples) media.examples = Object.fromEntries(Object.entries(examples).map(([name, value]) => [name, { value }]));
  return { description, content: { [PROBLEM_JSON]: media } };
}

/** A JSON success response. */
export function jsonResponse(description: string, schema: Json, headers?: Json): Json {
  return { description, ...(headers ? { headers } : {}), content: { 'application/json': { schema } } };
}

const responseRef = (name: string): Json => ({ $ref: `#/components/responses/${name}` });
const parameterRef = (name: string): Json => ({ $ref: `#/components/parameters/${name}` });
const headerRef = (name: string): Json => ({ $ref: `#/components/headers/${name}` });

// ---------------------------------------------------------------------------------------------
// info.description: what the specification leaves open, as the gateway implements it
// ---------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------
// Error codes
// ---------------------------------------------------------------------------------------------

/**
 * Every code a partner can receive, with the statuses it comes with and when: the Errors table of
 * `info.description` and the document's `x-error-codes`; each error response lists its own codes
 * in `x-error-codes`. error-codes.test.ts reads the codes the gateway and the owner services send
 * from their source and checks this list against them, both ways.
 */
export const PARTNER_ERROR_CODES: Record<string, { statuses: number[]; when: string }> = {
  'request.malformed': { statuses: [400], when: 'The body is not JSON.' },
  'request.invalid': {
    statuses: [400],
    when:
      'Validation failed; `errors` maps field paths such as `lines[2].modifierSelections[0].modifierOptionId` to ' +
      'messages. Also a JSON body nested too deeply.',
  },
  'request.path_invalid': {
    statuses: [400],
    when: 'The path is not canonical: a dot segment, an empty segment, an encoded dot, slash or backslash (in a path parameter, say).',
  },
  'request.aborted': {
    statuses: [400],
    when: 'The client went away before its body was received (nobody reads this answer).',
  },
  'idempotency.key_missing': { statuses: [400], when: 'A POST or PATCH without an `Idempotency-Key` header.' },
  'idempotency.key_invalid': {
    statuses: [400],
    when: 'The `Idempotency-Key` is longer than 128 characters or has leading or trailing whitespace.',
  },
  'auth.unauthenticated': {
    statuses: [401],
    when: 'One generic message for missing, malformed, unknown or revoked credentials.',
  },
  'auth.insufficient_scope': { statuses: [403], when: 'The installation lacks the required scope.' },
  'sandbox.not_a_sandbox': {
    statuses: [403],
    when: 'A sandbox scenario (our extension) for an installation that is not one of a sandbox tenant.',
  },
  'resource.not_found': {
    statuses: [404],
    when: 'The resource does not exist or is not visible to the installation (indistinguishable); also a path that is not an operation.',
  },
  'request.method_not_allowed': {
    statuses: [405],
    when: 'The path exists but not with this method (`Allow` names its methods).',
  },
  'request.timeout': {
    statuses: [408],
    when: 'The request (head or body) was not received in time; the connection is closed.',
  },
  'idempotency.key_reused': { statuses: [409], when: 'The same `Idempotency-Key` with a different request.' },
  'idempotency.request_in_progress': {
    statuses: [409],
    when: 'The first request with this key is still running after the wait.',
  },
  'tenancy.partner_api.external_order_id_conflict': {
    statuses: [409],
    when: '`externalOrderId` already used by the installation under a different idempotency key.',
  },
  'tenancy.order.price_mismatch': {
    statuses: [409],
    when: '`expectedTotal` differs from the computed `grandTotal`; nothing was created.',
  },
  'tenancy.partner_api.order_not_cancellable': {
    statuses: [409],
    when: 'Source cancel after the order left Pending; `status_detail.status` holds the current status name.',
  },
  'delivery.accept_not_allowed': {
    statuses: [409],
    when:
      "Accept while the assignment is not Assigned; `status_detail.status` holds the assignment's status name (as " +
      'every `delivery.*` conflict).',
  },
  'delivery.reject_not_allowed': {
    statuses: [409],
    when: 'Reject after accepting: only an Assigned delivery can be rejected.',
  },
  'delivery.cancel_not_allowed': {
    statuses: [409],
    when: 'Cancel while not Accepted or InTransit (while Assigned, reject instead; a Delivered delivery is final).',
  },
  'delivery.transition_not_allowed': {
    statuses: [409],
    when: 'Invalid delivery status transition: 4 (InTransit) only from Accepted, 5 (Delivered) only from InTransit.',
  },
  'delivery.update_not_allowed': {
    statuses: [409],
    when: 'Driver, ETA or tracking changed while the assignment is not Accepted or InTransit.',
  },
  'webhook.delivery_in_progress': {
    statuses: [409],
    when: 'Redelivery (our extension) of a webhook delivery still being attempted: redeliver it once it has ended.',
  },
  'webhook.installation_not_receiving': {
    statuses: [409],
    when: "Redelivery (our extension) while the installation no longer receives the delivery's event type.",
  },
  'request.too_large': { statuses: [413], when: 'The request body is too large.' },
  'request.unsupported_media_type': {
    statuses: [415],
    when: 'The request body is not one of the accepted JSON media types.',
  },
  'rate_limit.exceeded': { statuses: [429], when: 'A rate limit was exceeded (see below); with `Retry-After`.' },
  'request.headers_too_large': {
    statuses: [431],
    when: 'The request line and headers together are larger than 16 KiB; the connection is closed.',
  },
  internal: { statuses: [500], when: 'An unexpected failure; the details are logged, never returned.' },
  'upstream.bad_response': { statuses: [502], when: 'An internal service answered badly.' },
  'service.unavailable': {
    statuses: [503],
    when: 'A store the service needs (database, Redis) is out of reach for a moment; with `Retry-After`.',
  },
  'resource.busy': {
    statuses: [503],
    when:
      'Another change of the same order or delivery holds it (POST and PATCH); with `Retry-After: 1`: the same ' +
      'request, with the same `Idempotency-Key`, succeeds shortly.',
  },
  'upstream.unavailable': { statuses: [503], when: 'An internal service is unavailable; with `Retry-After`.' },
  'upstream.timeout': { statuses: [504], when: 'An internal service did not answer in time.' },
};

const ERRORS_TABLE = [
  '| Status | Code | When |',
  '|---|---|---|',
  ...Object.entries(PARTNER_ERROR_CODES).map(
    ([code, { statuses, when }]) => `| ${statuses.join(', ')} | \`${code}\` | ${when} |`,
  ),
].join('\n');

/** The codes of one error response, each with its status in PARTNER_ERROR_CODES (error-codes.test.ts). */
const X_ERROR_CODES = 'x-error-codes';

const S = ASSIGNMENT_STATUS;
/** A status as the document writes it: name and value, e.g. `Accepted (2)`. */
const st = (name: keyof typeof ASSIGNMENT_STATUS) => `${name} (${S[name]})`;
const ETA_PAST_MINUTES = DELIVERY_LIMITS.etaPastToleranceSeconds / 60;

const DESCRIPTION = `
The Marketplace Partner API lets a partner backend read a restaurant's catalog, create, read and
cancel orders (**order source** integrations) and act on delivery assignments (**delivery
provider** integrations). The service also sends signed webhooks to the partner backend (see
\`webhooks\`).

All paths are under \`{base_url}\` and carry the version prefix \`/api/partner/v1\`. All request
bodies are JSON; accepted media types are \`application/json\`, \`text/json\` and
\`application/*+json\`. Every price, tax, discount, fee and total is computed by the service;
catalog prices are display values, not locked prices.

## Authentication

Every request carries \`Authorization: ApiKey <KEY_ID>.<API_SECRET>\`. The whole
\`KEY_ID.API_SECRET\` string is one secret: use it only from the partner backend. It is shown once
when the restaurant connects the app (and again after a reconnect or rotation) and can never be
retrieved.

- **401** \`auth.unauthenticated\`: the credential is missing, malformed, unknown or revoked.
  Authentication failures never say which part of the credential was wrong: every case gets the
  same generic message.
- **403** \`auth.insufficient_scope\`: the credential is valid but the installation lacks the
  operation's scope.

Scopes are fixed at connect time from the contract version the restaurant consented to; each is
independent. Each operation names its scope in its description, in its \`security\` requirement
and in the extension \`x-required-scopes\` (when it lists several, any one of them grants the
call). A scope alone never grants access to an order: ownership is checked too, and every failure
is the same generic 404.

## Errors

Errors are \`application/problem+json\` (RFC 9457) with \`type\`, \`status\`, \`title\`, \`detail\`,
a stable string \`code\` and optionally \`instance\`. Clients inspect \`code\`, not only the status.
\`type\` is \`/docs/problems/<code>\`, one per code: a relative URI reference (RFC 9457 §3.1.1 accepts
one, with the full path), resolved against the URI of the request, so on this deployment's origin.
It names a page describing the code: its meaning, HTTP status, what a client should do and whether
to retry. Every error response of an operation lists its codes in the extension \`x-error-codes\`; the
document's own \`x-error-codes\` lists them all. Codes:

${ERRORS_TABLE}

429 and 503 answers carry \`Retry-After\` (whole seconds). 405, 408 and 431 answer a request that is
no operation of this document (a method the path does not have; a request not read in time or whose
head is too large) and are listed here only.

## Rate limits

A sliding window of exactly 60 seconds, counted in Redis by one atomic script:

- at most **120 requests per client IP** address in any 60 s: every request, counted before
  authentication;
- at most **60 requests per installation** in any 60 s: every authenticated request; all endpoints
  (catalog reads included) share this budget.

A refused request is not counted. A refused request gets **429** \`rate_limit.exceeded\` with
\`Retry-After\` = the whole number of seconds until the oldest counted request leaves the window
(at least 1).

The answers carry the IETF RateLimit fields (draft-ietf-httpapi-ratelimit-headers, structured
fields), one policy each: every answer to an authenticated request (all but 401) the
installation's, and a 429 of the per-IP limit the \`"ip"\` one:

- \`RateLimit-Policy: "installation";q=60;w=60\`: the policy's name, its quota \`q\` (requests) and
  window \`w\` (seconds);
- \`RateLimit: "installation";r=59\`: \`r\`, what is left of the quota after this request; on a 429
  also \`t\`, the seconds until a request is admitted again (the same as \`Retry-After\`), and
  \`r=0\`.

## Catalog caching

Catalog reads answer with a weak \`ETag\` and \`Cache-Control: no-cache\` (keep the body, but
revalidate before reusing it: a change shows at once). Send the \`ETag\` back in \`If-None-Match\`:
an unchanged catalog is **304 Not Modified** without a body. A client that sends
\`Accept-Encoding: gzip\` may get the body gzipped (\`Content-Encoding: gzip\`, \`Vary: Accept-Encoding\`).
Revalidations count against the rate limit like any request.

## Idempotency

Every POST and PATCH requires the header \`Idempotency-Key\` (1 to 128 characters, no leading or
trailing whitespace).

- Keys are scoped per installation and kept **24 hours**.
- Same key and same request (method, path and JSON body, compared after parsing, so whitespace
  and key order do not matter): the stored response (status, body, \`Content-Type\`, \`Location\`)
  is replayed, not re-executed, with the header \`Idempotent-Replayed: true\`.
- Same key and a different request: **409** \`idempotency.key_reused\`.
- Only 2xx responses are stored. An error response changed nothing, so the same key may be
  retried; this is what keeps the key usable after a 409 \`tenancy.order.price_mismatch\` or a 400.
- A concurrent request with the same key waits for the first and replays its result (exactly one
  mutation); if the first is still running after the wait: **409**
  \`idempotency.request_in_progress\`.
- An answer lost after the change was made (a **504** \`upstream.timeout\`, a dropped connection)
  was not stored here, but the service that made the change knows the key too: a retry with the
  same key and request gets the original status and body (without \`Idempotent-Replayed\`), not
  a conflict with the state that change produced. The delivery operations keep their answers as
  long as stored responses are kept here and answer the same key with a different request (another
  body, another operation or order) **409** \`idempotency.key_reused\`; order creation answers
  the order the key created; the source cancel answers the cancellation the key made.

\`externalOrderId\` is the partner's permanent order identifier; \`Idempotency-Key\` identifies one
request attempt only.

## Enumerations

Enumerations are integers in REST responses and requests (never booleans). Where the
specification lists only some values of an enumeration (order status, payment status), the field
is documented as an integer with the known values in its description: clients must tolerate other
values. The assignment status is the closed enumeration \`AssignmentStatus\`: every value, its name
(\`x-enum-varnames\`) and its meaning (\`x-enum-descriptions\`).

## Delivery assignments

A tenant assigns a Delivery order to one of its delivery-provider installations; the installation
is told by \`delivery.assigned\` and acts on it through \`/deliveries/{orderId}/…\`. Values of
\`AssignmentStatus\`:

| Status | The installation may | Reached by |
|---|---|---|
| ${st('Assigned')} | accept, reject | the tenant's assignment |
| ${st('Accepted')} | cancel; status 4; driver, ETA, tracking | accept |
| ${st('InTransit')} | cancel; status 5; driver, ETA, tracking | status 4 |
| ${st('Delivered')} | nothing (final); still reads the order | status 5: the order, if Pending or Accepted, becomes Completed (6) |
| ${st('Rejected')} | nothing: ended | reject |
| ${st('Cancelled')} | nothing: ended | cancel (no \`delivery.cancelled\` to the caller) |
| ${st('Superseded')} | nothing: ended | the tenant reassigned the order while Assigned (\`delivery.superseded\`) |
| ${st('Terminated')} | nothing: ended | the order was cancelled (by the tenant or its source) or rejected while the assignment was Assigned, Accepted or InTransit (\`delivery.cancelled\`) |

Every delivery operation acts on the order's **live** assignment (Assigned, Accepted, InTransit or
Delivered) and only when the caller's installation holds it: an unknown order, an order assigned
to another installation and an assignment that has ended all get the same 404
\`resource.not_found\`. An action the live assignment's status does not allow is 409 with a code
per operation and \`status_detail.status\` (the assignment's status name). Nothing is reassigned
automatically after a reject or a cancel.

## Webhooks

Apps that subscribe to events receive signed HTTPS POST requests at the webhook URL of their
contract version (see \`webhooks\`). The signature is HMAC-SHA256, lowercase hex, keyed with the
webhook signing secret (never the API secret), over the bytes of \`{timestamp}.{rawBody}\`.

Every webhook also carries the [Standard Webhooks](https://www.standardwebhooks.com/) headers
\`webhook-id\` (the event id), \`webhook-timestamp\` (the same Unix seconds) and
\`webhook-signature\`, so a Standard Webhooks library verifies it with the very signing secret shown
at connect (\`new Webhook(secret).verify(rawBody, headers)\`). The signing secret is \`whsec_\` and
the standard base64 of 32 random bytes (44 characters, \`=\` padded); the X-Marketplace signature is
keyed with that whole string, the Standard Webhooks one with the bytes it encodes. A secret issued
before these headers is base64url without padding, which Standard Webhooks libraries refuse: rotate
it, or convert it (\`-\` to \`+\`, \`_\` to \`/\`, then \`=\` to a multiple of 4 characters).
After a signing-secret rotation, \`webhook-signature\` carries a signature with the new secret and
one with the previous secret for ${SECRET_OVERLAP_HOURS} hours, so a receiver can switch over without refusing a
delivery; \`X-Marketplace-Signature\` uses the new secret at once.

Delivery is at-least-once: deduplicate by the event id and answer 2xx quickly. Retries on 5xx, 408, 429 or
a network timeout: base delay 2 minutes, multiplied by 3 per attempt, capped at 12 hours, jitter
±20 % after the cap, at most 8 attempts. Any other 4xx is permanent.

## Extension: webhook deliveries

The operations tagged \`Webhook deliveries\` are an extension of v1: ours, not the
specification's. An installation lists its own webhook deliveries with their attempts, reads one
with the body exactly as sent, and asks for a redelivery. Any valid API key of the installation may
call them (no scope is needed, none is granted); another installation's delivery is the same 404 as
an unknown one. The \`marketplace-webhooks listen\` command of the webhook package polls this log and
forwards each new webhook, signed afresh with the signing secret, to a local URL.
`.trim();

// ---------------------------------------------------------------------------------------------
// Operations
// ---------------------------------------------------------------------------------------------

type Tag = 'Catalog' | 'Orders' | 'Deliveries' | typeof WEBHOOK_DELIVERIES_TAG | typeof SANDBOX_TAG;

interface OperationSpec {
  tag: Tag;
  operationId: string;
  summary: string;
  description: string;
  /** Scopes of which any one grants the call; none: any valid key of the installation (our extension). */
  scopes: string[];
  parameters?: Json[];
  requestBody?: Json;
  success: Record<string, Json>;
  /**
   * Error responses beyond those `operation` adds: 400 (for a POST or PATCH, or a path parameter),
   * 401, 403, 413 and 415 (POST and PATCH), 429, 500, 502, 503 and 504.
   */
  errors: Record<string, Json>;
  /** Examples of the 400 answer. */
  badRequestExamples?: Record<string, Json>;
}

const MUTATING_SUCCESS_HEADERS: Json = { 'Idempotent-Replayed': headerRef('IdempotentReplayed') };

/** On every answer to an authenticated request (partner/edge.ts): all but 401. */
const RATE_LIMIT_HEADERS: Json = {
  'RateLimit-Policy': headerRef('RateLimitPolicy'),
  RateLimit: headerRef('RateLimit'),
};

/**
 * An error response of the Partner API: problem+json, the codes it can carry (in the description
 * and in `x-error-codes`), the rate-limit headers (not on 401, answered before the installation is
 * known) and any other headers.
 */
function problem(
  codes: string[],
  description: string,
  options: { examples?: Record<string, Json>; headers?: Json; rateLimit?: boolean } = {},
): Json {
  const headers = { ...(options.rateLimit === false ? {} : RATE_LIMIT_HEADERS), ...(options.headers ?? {}) };
  return {
    ...problemResponse(description, options.examples),
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    [X_ERROR_CODES]: codes,
  };
}

/** A success response with the rate-limit headers added to its own. */
function withRateLimit(response: Json): Json {
  return { ...response, headers: { ...(response.headers ?? {}), ...RATE_LIMIT_HEADERS } };
}

const PATH_PARAMETERS = new Set(
  ['OrderId', 'BranchId', 'ProductId', 'DeliveryId'].map((name) => parameterRef(name).$ref),
);

/**
 * The 400 of an operation: a path parameter that makes the path not canonical (`..`, an encoded
 * slash) and, on POST and PATCH, the Idempotency-Key and the body. Undefined when none applies.
 */
function badRequest(
  spec: OperationSpec,
  mutating: boolean,
  pathParameters: boolean,
  examples?: Record<string, Json>,
): Json | undefined {
  const parts: Array<[string, string]> = [];
  if (mutating) {
    parts.push(
      spec.requestBody
        ? ['request.invalid', 'validation failed; `errors` maps field paths to messages']
        : ['request.invalid', 'a body, which this operation does not take, nested too deeply'],
      [
        'request.malformed',
        spec.requestBody ? 'the body is not JSON' : 'a body, which this operation does not take, is not JSON',
      ],
      ['idempotency.key_missing', 'no `Idempotency-Key`'],
      ['idempotency.key_invalid', 'an `Idempotency-Key` over 128 characters or with surrounding whitespace'],
      ['request.aborted', 'the client went away before its body was received'],
    );
  }
  if (pathParameters)
    parts.push([
      'request.path_invalid',
      'a path parameter that makes the path not canonical, such as `..` or an encoded slash',
    ]);
  if (parts.length === 0) return undefined;
  return problem(
    parts.map(([code]) => code),
    `Bad request. Codes: ${parts.map(([code, when]) => `\`${code}\` (${when})`).join(', ')}.`,
    { examples },
  );
}

function operation(spec: OperationSpec, mutating: boolean): Json {
  const scopeText =
    spec.scopes.length === 0
      ? '**Required scope:** none: any valid API key of the installation.'
      : spec.scopes.length === 1
        ? `**Required scope:** \`${spec.scopes[0]}\`.`
        : `**Required scope:** ${spec.scopes.map((s) => `\`${s}\``).join(' or ')} (any one), plus ownership.`;
  const parameters = [...(spec.parameters ?? []), ...(mutating ? [parameterRef('IdempotencyKey')] : [])];
  const pathParameters = parameters.some((p) => PATH_PARAMETERS.has(p.$ref));
  const invalid = badRequest(spec, mutating, pathParameters, spec.badRequestExamples);
  return {
    tags: [spec.tag],
    operationId: spec.operationId,
    summary: spec.summary,
    description: `${spec.description}\n\n${scopeText}`,
    'x-required-scopes': spec.scopes,
    // OpenAPI 3.1 lets any scheme list role names: alternatives are separate requirement objects.
    security:
      spec.scopes.length === 0 ? [{ partnerApiKey: [] }] : spec.scopes.map((scope) => ({ partnerApiKey: [scope] })),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(spec.requestBody ? { requestBody: spec.requestBody } : {}),
    // Integer-like keys keep ascending order in JavaScript objects.
    responses: {
      ...Object.fromEntries(
        Object.entries(spec.success).map(([status, response]) => [status, withRateLimit(response)]),
      ),
      ...(invalid ? { '400': invalid } : {}),
      '401': responseRef('Unauthorized'),
      '403': responseRef('Forbidden'),
      ...(mutating ? { '413': responseRef('PayloadTooLarge'), '415': responseRef('UnsupportedMediaType') } : {}),
      '429': responseRef('TooManyRequests'),
      '500': responseRef('InternalError'),
      '502': responseRef('BadGateway'),
      '503': responseRef(mutating ? 'UnavailableOrBusy' : 'Unavailable'),
      '504': responseRef('GatewayTimeout'),
      ...spec.errors,
    },
  };
}

const get = (spec: OperationSpec): Json => ({ get: operation(spec, false) });
const post = (spec: OperationSpec): Json => ({ post: operation(spec, true) });
const patch = (spec: OperationSpec): Json => ({ patch: operation(spec, true) });

/** A JSON request body, accepted as application/json and text/json (and application/*+json). */
function jsonBody(schemaName: string, description: string): Json {
  const schema = ref(schemaName);
  return {
    required: true,
    description: `${description}\n\nAccepted media types: \`application/json\`, \`text/json\` and \`application/*+json\`.`,
    content: { 'application/json': { schema }, 'text/json': { schema } },
  };
}

const P = '/api/partner/v1';

/** The builders partner-extension-api.ts makes its operations with. */
const EXTENSION_BUILDERS = {
  get: (spec: OperationSpec) => get(spec),
  post: (spec: OperationSpec) => post(spec),
  jsonBody: (schemaName: string, description: string) => jsonBody(schemaName, description),
  jsonResponse: (description: string, schema: Json, headers?: Json) => jsonResponse(description, schema, headers),
  problem: (codes: string[], description: string) => problem(codes, description),
  parameterRef: (name: string) => parameterRef(name),
  responseRef: (name: string) => responseRef(name),
  get idempotencyConflictCodes() {
    return IDEMPOTENCY_CONFLICT_CODES;
  },
  get mutatingSuccessHeaders() {
    return MUTATING_SUCCESS_HEADERS;
  },
};

/** The sandbox's scenarios as a table: what each needs, does and sends. */
function sandboxTable(): string {
  const rows = Object.entries(SANDBOX).map(
    ([name, s]) =>
      `| \`${name}\` | ${s.needs.map((n) => `\`${n}\``).join(', ') || 'nothing'} | ${s.does} | ${
        s.emits.map((e) => `\`${e.type}\` to ${EMITTED_TO[e.to]}`).join(', ') || 'no webhook'
      } |`,
  );
  return ['| Scenario | Needs | Does | Webhooks |', '|---|---|---|---|', ...rows].join('\n');
}

const EMITTED_TO = {
  caller: 'the calling installation',
  source: "the order's source installation",
  assignee: 'the installation holding a live assignment',
  installationId: '`installationId`',
} as const;

const IDEMPOTENCY_CONFLICT_CODES = ['idempotency.key_reused', 'idempotency.request_in_progress'];
const IDEMPOTENCY_CONFLICTS = IDEMPOTENCY_CONFLICT_CODES.map((code) => `\`${code}\``).join(', ');
/** The 409 of a delivery operation: its own state conflict (with `status_detail`) and the idempotency ones. */
function deliveryConflict(code: string, when: string, example: keyof typeof ASSIGNMENT_STATUS): Json {
  return problem(
    [code, ...IDEMPOTENCY_CONFLICT_CODES],
    `Conflict. Codes: \`${code}\` (${when}; \`status_detail.status\` holds the assignment's status name), ` +
      `${IDEMPOTENCY_CONFLICTS}.`,
    {
      examples: {
        notAllowed: {
          type: problemTypeUri(code),
          title: 'Conflict',
          status: 409,
          detail: `The delivery does not allow this in status ${example}.`,
          code,
          status_detail: { status: example },
        },
      },
    },
  );
}
const notFoundAssignment = problem(
  ['resource.not_found'],
  "Not found (`resource.not_found`): the order does not exist, or the caller's installation does not hold its live " +
    'delivery assignment (never assigned to it, assigned to another installation, or the assignment ended: ' +
    'rejected, cancelled, superseded or terminated). The cases are indistinguishable.',
);

/** Said by every delivery operation. */
const HELD_ONLY =
  "Acts on the order's live assignment, and only when the caller's installation holds it; otherwise (unknown order, " +
  "another installation's, an ended assignment) 404 `resource.not_found`. Answers the assignment in its current state.";

const assignmentResult = jsonResponse(
  'The assignment in its current state.',
  ref('DeliveryAssignmentResponse'),
  MUTATING_SUCCESS_HEADERS,
);

function deliveryAction(
  action: 'accept' | 'reject' | 'cancel',
  scope: string,
  summary: string,
  description: string,
  conflict: Json,
): Json {
  return post({
    tag: 'Deliveries',
    operationId: `${action}Delivery`,
    summary,
    description: `${description}\n\n${HELD_ONLY}`,
    scopes: [scope],
    parameters: [parameterRef('OrderId')],
    success: { '200': assignmentResult },
    errors: { '404': notFoundAssignment, '409': conflict },
  });
}

function deliveryUpdate(
  field: string,
  scope: string,
  body: string,
  summary: string,
  description: string,
  conflict: Json,
): Json {
  return patch({
    tag: 'Deliveries',
    operationId: `updateDelivery${field}`,
    summary,
    description: `${description}\n\n${HELD_ONLY}`,
    scopes: [scope],
    parameters: [parameterRef('OrderId')],
    requestBody: jsonBody(body, summary),
    success: { '200': assignmentResult },
    errors: { '404': notFoundAssignment, '409': conflict },
  });
}

/** Driver, ETA and tracking: the same states allow them, with the same conflict. */
const UPDATABLE_STATES = `Allowed only while ${st('Accepted')} or ${st('InTransit')}; otherwise 409 \`delivery.update_not_allowed\`.`;
const updateConflict = deliveryConflict(
  'delivery.update_not_allowed',
  'the assignment is not Accepted or InTransit',
  'Assigned',
);

/** Catalog reads: a weak ETag, revalidation with If-None-Match (304), gzip when accepted (catalog partner-routes.ts). */
const CATALOG_HEADERS: Json = {
  ETag: headerRef('ETag'),
  'Cache-Control': headerRef('CatalogCacheControl'),
  Vary: headerRef('Vary'),
};
const catalogRead = (description: string, schema: Json): Record<string, Json> => ({
  '200': jsonResponse(description, schema, { ...CATALOG_HEADERS, 'Content-Encoding': headerRef('ContentEncoding') }),
  '304': {
    description: 'Not modified: the `If-None-Match` named the current `ETag`. No body.',
    headers: CATALOG_HEADERS,
  },
});

const paths: Json = {
  [`${P}/catalog/branches`]: get({
    tag: 'Catalog',
    operationId: 'listBranches',
    summary: 'List the branches',
    description: 'Every active branch of the tenant that installed the app. A full snapshot: no pagination.',
    scopes: ['Catalog.Read'],
    parameters: [parameterRef('IfNoneMatch')],
    success: catalogRead('The active branches.', arrayOf(ref('Branch'))),
    errors: { '404': responseRef('NotFound') },
  }),
  [`${P}/catalog/branches/{branchId}/products`]: get({
    tag: 'Catalog',
    operationId: 'listProducts',
    summary: "List a branch's products",
    description:
      "The branch's full effective catalog as categories with product summaries, without modifier detail. " +
      'A full snapshot: no pagination, no change feed.',
    scopes: ['Catalog.Read'],
    parameters: [parameterRef('BranchId'), parameterRef('Language'), parameterRef('IfNoneMatch')],
    success: catalogRead('The catalog of the branch.', ref('ProductListResponse')),
    errors: { '404': responseRef('NotFound') },
  }),
  [`${P}/catalog/branches/{branchId}/products/{productId}`]: get({
    tag: 'Catalog',
    operationId: 'getProduct',
    summary: 'Get a product with its modifiers',
    description: 'One product of the branch with its variants and the complete, recursively nested modifier hierarchy.',
    scopes: ['Catalog.Read'],
    parameters: [
      parameterRef('BranchId'),
      parameterRef('ProductId'),
      parameterRef('Language'),
      parameterRef('IfNoneMatch'),
    ],
    success: catalogRead('The product.', ref('ProductDetailResponse')),
    errors: { '404': responseRef('NotFound') },
  }),
  [`${P}/orders`]: post({
    tag: 'Orders',
    operationId: 'createOrder',
    summary: 'Create an order',
    description:
      'Creates an order in status Pending (1) and broadcasts `orders.created`. Every identifier is revalidated and ' +
      'every price, tax, discount, fee and total is computed by the service; the only client value that may affect ' +
      'the outcome is `expectedTotal`, a reconciliation guard.\n\n' +
      '- `orderMode` must be 1 (Delivery) or 2 (Pickup); `paymentMethod` 1 (Cash) or 2 (CardOnDelivery); other values are rejected with 400.\n' +
      '- Delivery requires `deliveryZoneId` and `deliveryAddress`; the zone must exist, belong to the branch, be active and contain the ' +
      'coordinates. Pickup has neither.\n' +
      '- `expectedTotal` different from the computed `grandTotal`: 409 `tenancy.order.price_mismatch`, nothing is created and both ' +
      '`externalOrderId` and `Idempotency-Key` stay usable for a corrected retry.\n' +
      '- An `externalOrderId` already used by the installation under a different `Idempotency-Key`: 409 ' +
      '`tenancy.partner_api.external_order_id_conflict`.\n' +
      '- An unknown, expired or inapplicable `promotionCode` (not valid yet, another branch, subtotal below its minimum, used up): 400 with ' +
      'the reason under `errors.promotionCode`.\n' +
      '- Limits: 1 to 50 lines; quantity 1 to 99; at most 100 modifier selections per line; `customerName` 1 to 100 characters; ' +
      '`customerPhone` an optional `+` then 6 to 15 digits, with spaces, dots, dashes or parentheses between them; `customerEmail` at ' +
      "most 254; `customerNotes` and `deliveryAddress.notes` at most 500; a line's `customerNote` at most 200; `externalOrderId` 1 to " +
      '128 without control characters; `promotionCode` at most 50; `addressLine` 1 to 300; `label` at most 100.\n' +
      "- `orderNumber` is the tenant's next order number, a string of digits from 1001 on (gaps are possible, duplicates are not).",
    scopes: ['Orders.Create'],
    requestBody: jsonBody('CreateOrderRequest', 'The order to create.'),
    success: {
      '201': jsonResponse('The order was created.', ref('CreateOrderResponse'), {
        Location: {
          description: 'The order: `/api/partner/v1/orders/{orderId}`.',
          schema: { type: 'string', format: 'uri-reference' },
        },
        ...MUTATING_SUCCESS_HEADERS,
      }),
    },
    badRequestExamples: {
      validation: {
        type: problemTypeUri('request.invalid'),
        title: 'Bad Request',
        status: 400,
        detail: 'The request is invalid.',
        code: 'request.invalid',
        errors: { 'lines[2].modifierSelections[0].modifierOptionId': ['must match format "uuid"'] },
      },
    },
    errors: {
      '409': problem(
        [
          'tenancy.order.price_mismatch',
          'tenancy.partner_api.external_order_id_conflict',
          ...IDEMPOTENCY_CONFLICT_CODES,
        ],
        'Conflict. Codes: `tenancy.order.price_mismatch`, `tenancy.partner_api.external_order_id_conflict`, ' +
          `${IDEMPOTENCY_CONFLICTS}.`,
        {
          examples: {
            priceMismatch: {
              type: problemTypeUri('tenancy.order.price_mismatch'),
              title: 'Conflict',
              status: 409,
              detail: 'expectedTotal does not match the computed grandTotal.',
              code: 'tenancy.order.price_mismatch',
            },
          },
        },
      ),
    },
  }),
  [`${P}/orders/{orderId}`]: get({
    tag: 'Orders',
    operationId: 'getOrder',
    summary: 'Get an order',
    description:
      'Source-owned read: scope `Orders.Create` and the caller created the order via POST /orders; the response includes ' +
      '`paymentStatus`, `externalOrderId`, `subtotal`, `discountTotal`, `taxTotal`, `deliveryFee` and `serviceFee`.\n\n' +
      "Delivery-assignment-owned read: scope `Orders.Read` and the caller holds the order's live delivery assignment; " +
      'those seven fields are null, and `branch` is the pickup as it was at assignment. Whether the caller holds it is ' +
      'decided at the time of the request: the order is readable as soon as `delivery.assigned` arrives, and no longer ' +
      'once `delivery.superseded` or `delivery.cancelled` is sent.\n\n' +
      'A scope alone never grants access: any failure (wrong installation, no ownership, nonexistent order) is the same ' +
      'generic 404. Order status changes other than cancellation are observable only by polling this route.',
    scopes: ['Orders.Create', 'Orders.Read'],
    parameters: [parameterRef('OrderId')],
    success: { '200': jsonResponse('The order.', ref('OrderResponse')) },
    errors: { '404': responseRef('NotFound') },
  }),
  [`${P}/orders/{orderId}/cancel`]: post({
    tag: 'Orders',
    operationId: 'cancelOrder',
    summary: 'Cancel an order (source)',
    description:
      'Only the creating installation may cancel, and only while the order is Pending; the order becomes Cancelled (8), ' +
      '`orders.cancelled` is sent to the source installation and a live delivery assignment is terminated. Otherwise ' +
      '409 `tenancy.partner_api.order_not_cancellable` with `status_detail.status` holding the current status name.',
    scopes: ['Orders.Create'],
    parameters: [parameterRef('OrderId')],
    success: {
      '200': jsonResponse('The order was cancelled.', ref('OrderCancellationResponse'), MUTATING_SUCCESS_HEADERS),
    },
    errors: {
      '404': responseRef('NotFound'),
      '409': problem(
        ['tenancy.partner_api.order_not_cancellable', ...IDEMPOTENCY_CONFLICT_CODES],
        `Conflict. Codes: \`tenancy.partner_api.order_not_cancellable\`, ${IDEMPOTENCY_CONFLICTS}.`,
        {
          examples: {
            notCancellable: {
              type: problemTypeUri('tenancy.partner_api.order_not_cancellable'),
              title: 'Conflict',
              status: 409,
              detail: 'The order can no longer be cancelled.',
              code: 'tenancy.partner_api.order_not_cancellable',
              status_detail: { status: 'Accepted' },
            },
          },
        },
      ),
    },
  }),
  [`${P}/deliveries/{orderId}/accept`]: deliveryAction(
    'accept',
    'Delivery.Accept',
    'Accept a delivery assignment',
    `${st('Assigned')} → ${st('Accepted')}; sets \`respondedAtUtc\`. Allowed only while Assigned; from any other ` +
      'status (already Accepted, InTransit or Delivered) 409 `delivery.accept_not_allowed`.',
    deliveryConflict('delivery.accept_not_allowed', 'the assignment is not Assigned', 'Accepted'),
  ),
  [`${P}/deliveries/{orderId}/reject`]: deliveryAction(
    'reject',
    'Delivery.Reject',
    'Reject a delivery assignment',
    `${st('Assigned')} → ${st('Rejected')}; sets \`respondedAtUtc\`. Allowed only while Assigned: after accepting ` +
      '(Accepted, InTransit or Delivered) 409 `delivery.reject_not_allowed`. The assignment ends: the caller no longer ' +
      'holds the order (a later call about it is 404). No automatic reassignment; order status and payment are untouched.',
    deliveryConflict('delivery.reject_not_allowed', 'the assignment was accepted already', 'Accepted'),
  ),
  [`${P}/deliveries/{orderId}/cancel`]: deliveryAction(
    'cancel',
    'Delivery.Cancel',
    'Cancel an accepted delivery',
    `${st('Accepted')} or ${st('InTransit')} → ${st('Cancelled')}. Allowed only while Accepted or InTransit: while ` +
      'Assigned (reject instead) or once Delivered, 409 `delivery.cancel_not_allowed`. The assignment ends: the caller ' +
      'no longer holds the order. No automatic reassignment; the order is untouched; `delivery.cancelled` is not sent ' +
      'to the caller for its own cancel.',
    deliveryConflict('delivery.cancel_not_allowed', 'the assignment is not Accepted or InTransit', 'Assigned'),
  ),
  [`${P}/deliveries/{orderId}/status`]: deliveryUpdate(
    'Status',
    'Delivery.UpdateStatus',
    'DeliveryStatusUpdateRequest',
    'Move the delivery to InTransit or Delivered',
    `Legal targets are 4 (${st('InTransit')}, only from Accepted) and 5 (${st('Delivered')}, only from InTransit); ` +
      'any other `targetStatus` is 400 `request.invalid`, and a move the current status does not allow (4 twice, 5 ' +
      'from Accepted, anything from Assigned or Delivered) is 409 `delivery.transition_not_allowed`.\n\n' +
      'Delivered is final and completes the order: an order still Pending (1) or Accepted (2) becomes Completed (6) ' +
      '(applied by the order service moments later; `GET /orders/{orderId}` shows it). The caller keeps the Delivered ' +
      'assignment and can still read the order.',
    deliveryConflict('delivery.transition_not_allowed', '4 only from Accepted, 5 only from InTransit', 'Assigned'),
  ),
  [`${P}/deliveries/{orderId}/driver`]: deliveryUpdate(
    'Driver',
    'Delivery.UpdateDriver',
    'DeliveryDriverUpdateRequest',
    'Set the driver',
    'Sets (or clears, with null) the driver name and phone; both fields are required. ' +
      `\`driverName\`: 1 to ${DELIVERY_LIMITS.driverNameMaxLength} characters, not only spaces (stored without ` +
      'surrounding spaces). `driverPhone`: as a customer phone, an optional `+` then 6 to 15 digits, with spaces, dots, ' +
      `dashes or parentheses between them, at most ${DELIVERY_LIMITS.driverPhoneMaxLength} characters. Else 400 ` +
      `\`request.invalid\`.\n\n${UPDATABLE_STATES}`,
    updateConflict,
  ),
  [`${P}/deliveries/{orderId}/eta`]: deliveryUpdate(
    'Eta',
    'Delivery.UpdateEta',
    'DeliveryEtaUpdateRequest',
    'Set the estimated time of arrival',
    'Sets (or clears, with null) the ETA: a date-time with a time zone, at most ' +
      `${ETA_PAST_MINUTES} minutes in the past and at most ${DELIVERY_LIMITS.etaMaxAheadDays} days ahead of the ` +
      "service's clock; else 400 `request.invalid` (under `errors.etaUtc`).\n\n" +
      UPDATABLE_STATES,
    updateConflict,
  ),
  [`${P}/deliveries/{orderId}/tracking`]: deliveryUpdate(
    'Tracking',
    'Delivery.UpdateTracking',
    'DeliveryTrackingUpdateRequest',
    'Set the tracking URL',
    'Sets (or clears, with null) the tracking URL; when set, an absolute `https://` URL with a host, at most ' +
      `${DELIVERY_LIMITS.trackingUrlMaxLength} characters; else 400 \`request.invalid\`.\n\n${UPDATABLE_STATES}`,
    updateConflict,
  ),
  // Our extension of v1 (partner-extension-api.ts): the installation's own webhook deliveries, the sandbox.
  ...webhookDeliveryPaths(EXTENSION_BUILDERS, P),
  ...sandboxPaths(EXTENSION_BUILDERS, P, sandboxTable()),
};

// ---------------------------------------------------------------------------------------------
// Schemas
// ---------------------------------------------------------------------------------------------

/**
 * The schemas come from their owners' contracts (`@marketplace/contracts`): catalog's reads,
 * ordering's order request (the very schema ordering-pricing validates with) and reads, the
 * delivery assignment's, the webhook bodies and the problem. The document cannot say less or more
 * than the services enforce.
 */
const schemas: Record<string, Json> = {
  ...partnerApiSchemas,
  // The sandbox (our extension): the request the gateway validates with, and its answer.
  SandboxScenarioRequest: requestSchemas.SandboxScenarioRequest,
  SandboxScenarioResult: {
    type: 'object',
    additionalProperties: false,
    required: ['scenario', 'does', 'emits', 'outcome'],
    properties: {
      scenario: { type: 'string', enum: [...SANDBOX_SCENARIOS] },
      does: { type: 'string', description: 'What the sandbox did, in words.' },
      emits: {
        type: 'array',
        description: 'The webhooks that follow, each with its receiver.',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['type', 'to'],
          properties: {
            type: { type: 'string' },
            to: {
              type: 'string',
              enum: ['caller', 'source', 'assignee', 'installationId'],
              description:
                'caller: the calling installation; source: the order source; assignee: the installation holding a live assignment; installationId: the one named in the request.',
            },
          },
        },
      },
      outcome: {
        description:
          'The order (order.*) or the assignment (delivery.*) as the tenant API answers it, `{ failingNext }` (webhook.fail) or `{ webhookSigningSecret }` (secret.rotate: shown once).',
      },
    },
  },
};

// ---------------------------------------------------------------------------------------------
// Webhooks
// ---------------------------------------------------------------------------------------------

function webhook(type: string, dataSchema: string, audience: string, when: string): Json {
  const operationId = `on${type
    .split(/[._]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('')}`;
  return {
    post: {
      operationId,
      summary: `Event ${type}`,
      description: `**Audience:** ${audience}.\n\n**Emitted when:** ${when}`,
      security: [],
      parameters: [
        parameterRef('WebhookEventId'),
        parameterRef('WebhookTimestamp'),
        parameterRef('WebhookSignature'),
        parameterRef('StandardWebhookId'),
        parameterRef('StandardWebhookTimestamp'),
        parameterRef('StandardWebhookSignature'),
      ],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              allOf: [ref('WebhookEnvelope'), { properties: { type: { const: type }, data: ref(dataSchema) } }],
            },
          },
        },
      },
      responses: {
        '2XX': { description: 'Received. Answer quickly; process asynchronously.' },
        default: {
          description:
            'Not received. 5xx, 408 and 429 (and network timeouts) are retried with backoff; any other 4xx is permanent.',
        },
      },
    },
  };
}

const webhooks: Json = {
  'orders.created': webhook(
    'orders.created',
    'OrdersCreatedData',
    'broadcast to every subscribed installation',
    'every new order, including one the receiver created.',
  ),
  'orders.cancelled': webhook(
    'orders.cancelled',
    'OrdersCancelledData',
    "the order's source installation only",
    'an order with a source installation becomes Cancelled, by the tenant or by the source through POST /orders/{orderId}/cancel.',
  ),
  'payment.completed': webhook(
    'payment.completed',
    'PaymentCompletedData',
    'broadcast',
    "a gateway-confirmed payment transition: the restaurant's payment processor confirmed the order's card-on-delivery " +
      'payment (once per order, on its first confirmation). A payment the restaurant records by hand (cash, say) is ' +
      'not gateway-confirmed and sends nothing: poll `GET /orders/{orderId}` for `paymentStatus`.',
  ),
  'delivery.assigned': webhook(
    'delivery.assigned',
    'DeliveryEventData',
    'the assigned installation only',
    'the tenant assigns an order to the installation (a new assignment, status Assigned; `assignmentId` is its id). ' +
      'Accept or reject it with `/deliveries/{orderId}/accept` or `/reject`; read the order with `GET /orders/{orderId}` ' +
      '(scope `Orders.Read`). Identifiers only: no customer data, address, financial data or free-text reason.',
  ),
  'delivery.cancelled': webhook(
    'delivery.cancelled',
    'DeliveryEventData',
    'the formerly assigned installation',
    'the tenant or the source cancels the order (or the tenant rejects it) while the assignment is Assigned, Accepted ' +
      'or InTransit; the assignment becomes Terminated (10) and the installation no longer holds the order. Not sent ' +
      'when the receiver cancels its own delivery, nor for a Delivered one. Identifiers only.',
  ),
  'delivery.superseded': webhook(
    'delivery.superseded',
    'DeliveryEventData',
    'the superseded installation',
    'the tenant reassigns the order to a different installation while this one had not answered (Assigned); the ' +
      'assignment `assignmentId` becomes Superseded (9) and the new installation receives `delivery.assigned`. ' +
      'Identifiers only.',
  ),
  'system.test': webhook(
    'system.test',
    'SystemTestData',
    'the installation the tenant tests',
    'the tenant triggers a diagnostic test. Sent through the same signed and retried pipeline; cannot be subscribed to.',
  ),
};

// ---------------------------------------------------------------------------------------------
// The document
// ---------------------------------------------------------------------------------------------

const SIGNATURE_RULE =
  'HMAC-SHA256, lowercase hex, keyed with the webhook signing secret (never the API secret), over the bytes of ' +
  '`{unixTimestamp}.{rawRequestBody}`: the `X-Marketplace-Timestamp` text, a dot, then the exact raw body bytes. ' +
  'Verify over the raw bytes as received (never a re-serialized body) and compare in constant time.';

const STANDARD_SIGNATURE_RULE =
  'Standard Webhooks: space-separated `v1,{signature}` entries, each the standard base64 of HMAC-SHA256 over ' +
  '`{webhook-id}.{webhook-timestamp}.{rawRequestBody}`, keyed with the bytes the signing secret encodes after ' +
  `\`whsec_\` (base64). One entry, or two for ${SECRET_OVERLAP_HOURS} hours after a signing-secret rotation ` +
  '(the new secret first, then the previous one). A Standard Webhooks library verifies it with the secret ' +
  'string as shown at connect.';

export const partnerApiDocument: Json = {
  openapi: '3.1.0',
  info: {
    title: 'Marketplace Partner API',
    version: '1.0.0',
    summary: 'Catalog, orders and deliveries for restaurant-marketplace partner integrations.',
    description: DESCRIPTION,
  },
  servers: [
    {
      url: '{base_url}',
      description: 'The marketplace deployment. Paths already carry the version prefix /api/partner/v1.',
      variables: {
        base_url: {
          default: 'https://marketplace.example.com',
          description: 'Origin of the marketplace deployment (scheme, host and port).',
        },
      },
    },
    { url: '/', description: 'The deployment serving this document.' },
  ],
  security: [{ partnerApiKey: [] }],
  tags: [
    {
      name: 'Catalog',
      description: 'Branches and their effective catalog (order sources). Full snapshots, no pagination.',
    },
    { name: 'Orders', description: 'Create, read and cancel orders (order sources; delivery providers read).' },
    { name: 'Deliveries', description: 'Act on delivery assignments (delivery providers).' },
    { name: WEBHOOK_DELIVERIES_TAG, description: WEBHOOK_DELIVERIES_TAG_DESCRIPTION },
    { name: SANDBOX_TAG, description: SANDBOX_TAG_DESCRIPTION },
  ],
  paths,
  webhooks,
  [X_ERROR_CODES]: Object.fromEntries(
    Object.entries(PARTNER_ERROR_CODES).map(([code, { statuses, when }]) => [code, { statuses, description: when }]),
  ),
  components: {
    securitySchemes: {
      partnerApiKey: {
        type: 'apiKey',
        in: 'header',
        name: 'Authorization',
        description:
          '`ApiKey <KEY_ID>.<API_SECRET>`\n\nThe header value is the word `ApiKey`, a space, then the API key shown once at ' +
          'connect (`<KEY_ID>.<API_SECRET>`, one secret). Failures are a generic 401 `auth.unauthenticated`; a valid key ' +
          'without the scope is 403 `auth.insufficient_scope`.',
      },
    },
    parameters: {
      IdempotencyKey: {
        name: 'Idempotency-Key',
        in: 'header',
        required: true,
        description:
          'Identifies one request attempt. Scoped per installation, kept 24 hours. 1 to 128 characters, no leading or ' +
          'trailing whitespace, no control characters. Missing: 400 `idempotency.key_missing`; invalid: 400 `idempotency.key_invalid`.',
        schema: { type: 'string', ...IDEMPOTENCY_KEY },
      },
      OrderId: { name: 'orderId', in: 'path', required: true, schema: uuid() },
      BranchId: { name: 'branchId', in: 'path', required: true, schema: uuid() },
      ProductId: { name: 'productId', in: 'path', required: true, schema: uuid() },
      ...EXTENSION_PARAMETERS,
      Language: {
        name: 'language',
        in: 'query',
        required: false,
        description:
          'Requested language. Resolved from this parameter alone, never from Accept-Language; the response field ' +
          '`resolvedLanguage` reports the result.',
        schema: { type: 'string' },
      },
      IfNoneMatch: {
        name: 'If-None-Match',
        in: 'header',
        required: false,
        description:
          'The `ETag` of a catalog answer the client holds: when it is still the current one, the answer is 304 Not ' +
          'Modified without a body.',
        schema: { type: 'string' },
      },
      WebhookEventId: {
        name: 'X-Marketplace-Event-Id',
        in: 'header',
        required: true,
        description: 'Same as the envelope `id`; stable across retries.',
        schema: { type: 'string' },
      },
      WebhookTimestamp: {
        name: 'X-Marketplace-Timestamp',
        in: 'header',
        required: true,
        description: 'Unix time in seconds of the send attempt, as a decimal string.',
        schema: { type: 'string', pattern: '^[0-9]+$' },
      },
      WebhookSignature: {
        name: 'X-Marketplace-Signature',
        in: 'header',
        required: true,
        description: SIGNATURE_RULE,
        schema: { type: 'string', pattern: '^[0-9a-f]{64}$' },
      },
      StandardWebhookId: {
        name: 'webhook-id',
        in: 'header',
        required: true,
        description: 'Standard Webhooks: the event id, the same as `X-Marketplace-Event-Id`; stable across retries.',
        schema: { type: 'string' },
      },
      StandardWebhookTimestamp: {
        name: 'webhook-timestamp',
        in: 'header',
        required: true,
        description: 'Standard Webhooks: the same Unix seconds as `X-Marketplace-Timestamp`.',
        schema: { type: 'string', pattern: '^[0-9]+$' },
      },
      StandardWebhookSignature: {
        name: 'webhook-signature',
        in: 'header',
        required: true,
        description: STANDARD_SIGNATURE_RULE,
        schema: { type: 'string', pattern: '^v1,[A-Za-z0-9+/]{43}=( v1,[A-Za-z0-9+/]{43}=)*$' },
      },
    },
    headers: {
      IdempotentReplayed: {
        description:
          '`true` when this is the stored response of an earlier request with the same Idempotency-Key; absent otherwise.',
        schema: { type: 'string', enum: ['true'] },
      },
      RetryAfter: {
        description: 'Whole seconds until the oldest counted request leaves the 60-second window (at least 1).',
        required: true,
        schema: { type: 'integer', minimum: 1 },
      },
      RetryAfterUnavailable: {
        description: 'Whole seconds to wait before trying again (at least 1).',
        required: true,
        schema: { type: 'integer', minimum: 1 },
      },
      RateLimitPolicy: {
        description:
          'The rate-limit policy that counted the request (draft-ietf-httpapi-ratelimit-headers, a structured-field ' +
          'list of one item): its name, its quota `q` in requests and its window `w` in seconds, for example ' +
          '`"installation";q=60;w=60`. On every answer to an authenticated request (not on 401); on a 429 of the ' +
          'per-IP limit it is that policy, `"ip";q=120;w=60`.',
        schema: { type: 'string', examples: ['"installation";q=60;w=60'] },
      },
      RateLimit: {
        description:
          'The current state of that policy (draft-ietf-httpapi-ratelimit-headers): `r`, what is left of the quota ' +
          'after this request, for example `"installation";r=59`; on a 429 also `t`, the seconds until a request is ' +
          'admitted again (as `Retry-After`): `"installation";r=0;t=37`.',
        schema: { type: 'string', examples: ['"installation";r=59', '"installation";r=0;t=37'] },
      },
      ETag: {
        description: 'A weak validator of the catalog answer (`W/"…"`); send it back in `If-None-Match` to revalidate.',
        schema: { type: 'string' },
      },
      CatalogCacheControl: {
        description:
          '`no-cache`: the answer may be kept but must be revalidated (`If-None-Match`) before it is reused.',
        schema: { type: 'string' },
      },
      Vary: {
        description: '`Accept-Encoding`: the body may be gzipped for a client that accepts it.',
        schema: { type: 'string' },
      },
      ContentEncoding: {
        description: '`gzip` when the request accepted it (`Accept-Encoding`) and the body is worth compressing.',
        schema: { type: 'string' },
      },
    },
    responses: {
      Unauthorized: problem(
        ['auth.unauthenticated'],
        'Unauthenticated (`auth.unauthenticated`): the credential is missing, malformed, unknown or revoked. One generic ' +
          'message; it never says which part of the credential was wrong.',
        { rateLimit: false },
      ),
      Forbidden: problem(
        ['auth.insufficient_scope'],
        'The installation lacks the required scope (`auth.insufficient_scope`).',
      ),
      NotFound: problem(
        ['resource.not_found'],
        'Not found (`resource.not_found`): the resource does not exist or is not visible to the installation; the two ' +
          'cases are indistinguishable.',
      ),
      PayloadTooLarge: problem(['request.too_large'], 'The request body is too large (`request.too_large`).'),
      UnsupportedMediaType: problem(
        ['request.unsupported_media_type'],
        'The request body is not `application/json`, `text/json` or `application/*+json` ' +
          '(`request.unsupported_media_type`).',
      ),
      TooManyRequests: problem(
        ['rate_limit.exceeded'],
        'Rate limited (`rate_limit.exceeded`): 120 requests per IP or 60 per installation in any 60 seconds. ' +
          '`RateLimit-Policy` and `RateLimit` name the policy that refused it (`"installation"` or `"ip"`), with ' +
          '`r=0` and `t` the seconds to wait.',
        { headers: { 'Retry-After': headerRef('RetryAfter') } },
      ),
      InternalError: problem(
        ['internal'],
        'An unexpected failure (`internal`); the details are logged, never returned.',
      ),
      BadGateway: problem(['upstream.bad_response'], 'An internal service answered badly (`upstream.bad_response`).'),
      Unavailable: problem(
        ['service.unavailable', 'upstream.unavailable'],
        'Unavailable for a moment: a store the service needs is out of reach (`service.unavailable`) or an internal ' +
          'service is unavailable (`upstream.unavailable`). Retry after `Retry-After` seconds.',
        { headers: { 'Retry-After': headerRef('RetryAfterUnavailable') } },
      ),
      UnavailableOrBusy: problem(
        ['service.unavailable', 'upstream.unavailable', 'resource.busy'],
        'Unavailable for a moment: a store the service needs is out of reach (`service.unavailable`), an internal ' +
          'service is unavailable (`upstream.unavailable`), or another change of the same order or delivery holds it ' +
          '(`resource.busy`). Retry after `Retry-After` seconds with the same `Idempotency-Key`.',
        { headers: { 'Retry-After': headerRef('RetryAfterUnavailable') } },
      ),
      GatewayTimeout: problem(['upstream.timeout'], 'An internal service did not answer in time (`upstream.timeout`).'),
    },
    schemas,
  },
};
