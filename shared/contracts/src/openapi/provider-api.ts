/**
 * OpenAPI 3.1 description of the Standard Delivery Provider Contract as provider-delivery serves
 * it: we are the delivery provider, a platform is the caller. Every body is the very schema the
 * service validates with (requests) or answers and sends with (responses, webhook events), from
 * `../http/provider`; the description says what the spec leaves to the provider (transitions,
 * cancel, return and update outcomes, error codes, the webhook test), as we decided it.
 */
import { type Json, json, ref } from './parts';
import { requestSchemas } from '../http';
import {
  PROVIDER_CONTRACT,
  PROVIDER_ERROR_CODES,
  PROVIDER_EVENTS,
  PROVIDER_EVENT_TYPES,
  PROVIDER_LIMITS,
  PROVIDER_REJECTION_REASONS,
  PROVIDER_STATUSES,
  PROVIDER_STATUS_MEANINGS,
  PROVIDER_TRANSITIONS,
  PROVIDER_WEBHOOK_RETRY,
  WEBHOOK_TEST_LIMITS,
  isTerminalStatus,
  providerSchemas,
} from '../http/provider';
import { PLATFORM_RATE_LIMIT } from '../http/provider-admin';

const code = (text: string) => `\`${text}\``;
const table = (head: string[], rows: string[][]) =>
  [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join(
    '\n',
  );

const STATUS_TABLE = table(
  ['Status', 'Terminal', 'Meaning', 'May move to'],
  PROVIDER_STATUSES.map((status) => [
    code(status),
    isTerminalStatus(status) ? 'yes' : 'no',
    PROVIDER_STATUS_MEANINGS[status],
    PROVIDER_TRANSITIONS[status].length > 0 ? PROVIDER_TRANSITIONS[status].map(code).join(', ') : 'nothing',
  ]),
);

const EVENT_TABLE = table(
  ['Event type', 'Status it carries', 'Required data', 'Since'],
  PROVIDER_EVENT_TYPES.map((type) => {
    const event = PROVIDER_EVENTS[type];
    return [
      code(type),
      event.status === 'current' ? 'the current status (never a terminal one)' : code(event.status),
      event.data,
      event.ours ? 'ours, 1.1.0 (new optional event type)' : 'the spec',
    ];
  }),
);

const ERROR_TABLE = table(
  ['HTTP status', 'Code', 'Meaning', 'retryable'],
  Object.entries(PROVIDER_ERROR_CODES).map(([name, { statuses, meaning }]) => [
    statuses.join(', '),
    code(name),
    meaning,
    statuses.some((status) => [429, 503].includes(status)) ? 'true' : 'false',
  ]),
);

const R = PROVIDER_WEBHOOK_RETRY;
const T = WEBHOOK_TEST_LIMITS;
/** Minutes from the first attempt to the last, nominal and at the most negative jitter. */
const retrySpanMinutes = Array.from({ length: R.attempts - 1 }, (_, k) =>
  Math.min(R.firstDelaySeconds * R.factor ** k, R.maxDelaySeconds),
).reduce((sum, seconds) => sum + seconds / 60, 0);
const minutes = (value: number) => String(Math.round(value * 10) / 10);
const L = PROVIDER_LIMITS;

const CANCEL_TABLE = table(
  ['Current status', '`stage: before_pickup`', '`stage: after_pickup`'],
  [
    [
      '`sent_to_provider`, `provider_accepted`, `driver_assigned`, `arrived_at_pickup`',
      'confirmed; → `cancelled` (`delivery.cancelled`)',
      'confirmed; → `cancelled` (cancelling before pickup is always possible)',
    ],
    [
      '`picked_up`, `on_the_way`',
      '`confirmed: false` (“The goods were picked up: cancel with stage after_pickup, or request a return.”)',
      'confirmed; → `cancelled` (the platform knows the goods are gone; bringing them back is a return)',
    ],
    ['`return_requested`, `returning_to_origin`', '`confirmed: false` (a return is under way)', 'the same'],
    ['`cancelled`', 'confirmed again; nothing changes, no event (idempotent)', 'the same'],
    [
      '`delivered`, `failed`, `returned_to_origin`, `return_failed`',
      '`confirmed: false`, the message naming the status',
      'the same',
    ],
    ['unknown to the account', '404 `delivery.not_found`', 'the same'],
  ],
);

const RETURN_TABLE = table(
  ['Current status', 'Answer'],
  [
    ['`picked_up`, `on_the_way`', 'accepted; → `return_requested` (`delivery.return_requested`)'],
    ['`return_requested`, `returning_to_origin`', 'accepted again; nothing changes, no event'],
    [
      '`sent_to_provider`, `provider_accepted`, `driver_assigned`, `arrived_at_pickup`',
      '`accepted: false` (“Nothing was picked up yet: cancel the delivery instead.”)',
    ],
    ['a terminal status', '`accepted: false`, the message naming the status'],
    ['unknown to the account', '404 `delivery.not_found`'],
  ],
);

const UPDATE_TABLE = table(
  ['Fields', 'Changed while the status is'],
  [
    [
      '`dropoffAddress`, `dropoffLat`, `dropoffLng` (together), `amount`, `currency`, `paymentMethod`, `deliveryFeeAmount`',
      'before pickup: `sent_to_provider`, `provider_accepted`, `driver_assigned`, `arrived_at_pickup`',
    ],
    [
      '`preparationTimeMinutes`, `scheduledDeliveryAtUtc` (the latter also needs the scheduled-delivery capability)',
      'before a driver is assigned: `sent_to_provider`, `provider_accepted`',
    ],
    ['`customerName`, `customerPhone`, `customerEmail`, `notes`', 'any nonterminal status but during a return'],
    ['any', 'never in a terminal status or during a return (`return_requested`, `returning_to_origin`)'],
  ],
);

const DESCRIPTION = [
  `The Standard Delivery Provider Contract, version ${PROVIDER_CONTRACT.version}, revision ${PROVIDER_CONTRACT.revision}, ` +
    'as this provider implements it. A platform creates deliveries with us, reads their status and tracking, updates, ' +
    'cancels and returns them, and receives our webhook events.',
  '## Connecting',
  '- **Base URL**: one HTTPS address per environment (staging and production are separate, with separate keys), ending ' +
    'in the version segment `/v1`; every path below is relative to it. The certificate is from a publicly trusted ' +
    'authority; we never answer with a redirect.',
  '- **Authentication**: every request carries `Authorization: Bearer <API_KEY>`. A key belongs to one account ' +
    '(integration audience), is revocable and rotated, and is never logged. Missing or invalid: 401 ' +
    '`auth.unauthenticated`; valid but not allowed (the endpoint’s capability is not enabled for the account): 403 ' +
    '`auth.forbidden`. Another account’s delivery is 404, as an unknown one. On `PATCH`, `…/cancel` and `…/return` an ' +
    'unknown delivery is 404 before anything else: before a missing capability (403) and before invalid fields (422).',
  '- **Media type**: request and response bodies are `application/json; charset=utf-8`; send `Accept: application/json`. ' +
    'Timestamps are RFC 3339 with an explicit offset (we send UTC, `Z`); money is a JSON number in the major unit.',
  '- **Unknown properties**: every request body accepts properties it does not list, at any level (`webhook` ' +
    'included), and ignores them: they are neither validated nor stored, and are not part of the idempotency ' +
    'comparison (versioning rule 1: a new optional request property is a backward-compatible change). The listed ' +
    'fields keep their rules.',
  '- **Blank strings**: the required text fields and their PATCH forms (`platformReference`, `idempotencyKey`, ' +
    '`pickupAddress`, `dropoffAddress`, `customerName`, `customerPhone`, `customerEmail`, `paymentMethod`, ' +
    '`reasonCode`) must have at least one character that is not whitespace (else 422); they are stored as sent, not ' +
    'trimmed. `notes` may be empty or only whitespace and is stored as sent. An empty `webhook.url` (or test `url`) is ' +
    '422, not read as absent: send null or leave it out. `currency` is three uppercase letters, `stage` one of its two ' +
    `values. \`customerEmail\` (PATCH only) is at most ${L.customerEmailMaxLength} characters, our limit (the spec shows none).`,
  '- **Identifiers**: `platformReference` is yours, stored and returned unchanged in every event; ' +
    '`providerDeliveryId` is ours and names the delivery in every path. `providerTrackingId` (optional in the spec) is ' +
    'never sent: our deliveries have no tracking id besides `providerDeliveryId`, and the customer’s tracking page is ' +
    'the `trackingUrl` of events and tracking reads.',
  '- **Capabilities** we declare at onboarding: supportsPolling (status and tracking), supportsReturnToOrigin, ' +
    'cancellation, the update fields below; supportsProofOfDelivery is false in this revision; scheduled delivery is ' +
    'enabled per account.',
  '## Create and idempotency',
  `1. The first valid \`POST /deliveries\` creates at most one delivery. \`idempotencyKey\` (at most ${L.idempotencyKeyMaxLength} ` +
    'characters, today equal to `platformReference`) identifies it within the account, in durable storage: a replay with ' +
    'the same key and the same payload returns the first answer, identifiers included, also after a restart or a timeout; ' +
    'concurrent duplicates converge on one delivery and one answer. Retry a timeout or an ambiguous answer with the same key.',
  '2. A replay with a changed payload is 409 `idempotency.payload_mismatch`; with a changed `webhook.url`, 409 ' +
    '`idempotency.callback_mismatch`. A replay without `webhook` (or with a null `url`) keeps the original callback; ' +
    'one that adds a callback the original did not have is a change. An absent nullable field and a null one are the same. ' +
    'The comparison covers the listed fields only: a replay that adds an unknown property is the same request and gets ' +
    'the first answer.',
  '3. A business refusal is 200 with `accepted: false` and a `rejectionReason` (an open set; ours: ' +
    Object.keys(PROVIDER_REJECTION_REASONS).map(code).join(', ') +
    '); its replay gets the same refusal. Invalid fields are 422 `request.invalid` with `fieldErrors`; a body that is ' +
    'not JSON is 400 `request.malformed`. Amounts with more than two decimals are 422.',
  '## Callbacks',
  'Each delivery’s events go to one callback, chosen at creation in this order: `webhook.url` of the create request; ' +
    'otherwise the global webhook URL configured for the account; otherwise none (poll `GET …/status`). The callback is ' +
    `stored with the delivery, never rewritten, and used for every event of that delivery and no other. It must be an absolute \`https://\` URL of at most ${L.callbackUrlMaxLength} ` +
    'characters, without credentials, fragment or a port other than 443, whose host resolves to a public address (else ' +
    '422 `request.invalid` at `webhook.url`); redirects are not followed. The token in its path is a confidential routing ' +
    'key, never logged. The HMAC secret is provisioned separately for the account and never sent in a request.',
  '## Webhook events',
  '- **Body**: a flat JSON object (`ProviderWebhookEvent`), `Content-Type: application/json; charset=utf-8`. Every event ' +
    'carries `eventType`, `platformReference`, `providerDeliveryId`, `status`, `eventTimeUtc` and the current driver, ' +
    'location, tracking URL and estimate (null when unknown).',
  '- **Signature**: header `X-Platform-Signature`, the lowercase hex HMAC-SHA256 of the exact UTF-8 bytes of the body with ' +
    'the account’s webhook secret, without a `sha256=` prefix. Verify it over the raw bytes before parsing; any change to ' +
    'the body invalidates it. The HMAC key is the whole secret string as shown (`pwhsec_` and 43 characters) taken as ' +
    'its UTF-8 bytes: not base64-decoded, prefix not removed.',
  `- **Retries**: any 2xx completes the attempt. 408, 429, 5xx and network errors are retried with bounded exponential ` +
    `backoff and jitter: ${R.attempts} attempts, the first at once, then after ${R.firstDelaySeconds} seconds, doubling up to ` +
    `${R.maxDelaySeconds / 60} minutes (±${R.jitter * 100} %): ${minutes(retrySpanMinutes)} minutes from the first attempt ` +
    `to the last, at least ${minutes(retrySpanMinutes * (1 - R.jitter))} (the contract asks for at least 6 attempts over at least 15 minutes). ` +
    'A `Retry-After` on any answer that is retried (408, 429, 5xx; seconds or an HTTP date) is honoured as the least ' +
    'wait before the next attempt, ' +
    `up to ${R.maxRetryAfterSeconds / 60} minutes. Other 4xx are not retried until the configuration or payload is ` +
    `corrected. Each attempt waits at most ${R.attemptTimeoutSeconds} seconds for the answer; redirects are not followed.`,
  '- **Order and duplicates**: `eventTimeUtc` is when we observed the event and is the same on every retry; events may ' +
    'arrive twice or out of order. After a terminal event we send no further event for the delivery. Location changes ' +
    'are sent at a reasonable rate; intermediate points may be combined.',
  EVENT_TABLE,
  'The statuses the spec’s event table gives no event (`arrived_at_pickup`, `on_the_way` and the return’s) have event ' +
    'types of ours, which the versioning rules allow as new optional event types (a backward-compatible change). ' +
    '`sent_to_provider` is never the status of an event.',
  '**Our own event types are opt-in**: a platform receives exactly the spec’s table unless its account was set up to ' +
    'receive more (the account’s `eventTypes`, set by our administrators when the platform asks). A move with no event ' +
    'for the platform still changes the status: `GET …/status` and `GET …/tracking` show it, and the next event sent ' +
    'carries it in `status` (e.g. a `driver.location_updated` with status `on_the_way`).',
  '## Statuses and transitions',
  'The vocabulary is closed: we send no other value and never report an unknown state as `failed`. The moves are ours ' +
    '(the spec leaves them to the provider); they only go forward, and `driver_assigned` → `driver_assigned` is a new ' +
    'driver. `GET …/status` and `GET …/tracking` return the state of the latest event or a newer one.',
  STATUS_TABLE,
  '## Cancellation (`POST …/cancel`)',
  'The outcome follows the delivery’s actual status; the stage is the platform’s view of it. Repeating the same ' +
    'cancellation is idempotent. Not retried automatically by the platform.',
  CANCEL_TABLE,
  '## Return to origin (`POST …/return`)',
  'With supportsReturnToOrigin. The goods go back to the pickup: `return_requested`, `returning_to_origin`, then ' +
    '`returned_to_origin` or `return_failed` (which needs review).',
  RETURN_TABLE,
  '## Update (`PATCH /deliveries/{providerDeliveryId}`)',
  'Only fields sent with a value change; an omitted field and an explicit null both leave it unchanged (clearing a ' +
    'nullable field is not supported). The drop-off address and coordinates are sent together. `fieldAccepted` has one ' +
    'boolean per field sent (a field sent as null is `true`: left unchanged, as asked); a field the current status does ' +
    'not allow is `false`, with `errorMessage` saying why. Values the schema refuses are 422 `request.invalid`.',
  UPDATE_TABLE,
  '## Errors',
  'Every error answer is the envelope `{ code, message, retryable, fieldErrors? }` (`ProviderError`, `application/json`). ' +
    'Messages never contain stack traces, SQL, secrets, internal exception types or credentials. 404 is only for an ' +
    'unknown delivery (or path); a transient 429 or 5xx is never disguised as 404 or as success. 429 and 503 carry ' +
    '`Retry-After` in seconds. Every error answer of an operation lists its codes in the extension `x-error-codes`; ' +
    'the document’s own `x-error-codes` lists them all, as the table below. `resource.not_found`, 405, 408 and 431 ' +
    'answer requests that are no operation of this document (an unknown path, a method the path does not have, a ' +
    'request not received in time or whose head is too large) and are listed here only. We answer no 502 or 504: ' +
    'nothing we depend on is called within a request but the callback host’s DNS, whose failure is 503.',
  `**Rate limit**: each account (all its keys together) may make ${PLATFORM_RATE_LIMIT.defaultRequestsPerMinute.toLocaleString('en')} ` +
    `authenticated requests in any ${PLATFORM_RATE_LIMIT.windowSeconds} seconds (a sliding window, every endpoint counted), unless ` +
    'agreed otherwise for the account; counted answers carry `RateLimit-Limit` and `RateLimit-Remaining`, and a request ' +
    'beyond the limit is 429 `request.rate_limited` with `Retry-After`.',
  ERROR_TABLE,
].join('\n\n');

// ---- Answers ----

/** Headers of the answers (inline: every `$ref` of this document names a schema). */
const HEADERS: Record<string, Json> = {
  RetryAfter: {
    description: 'Whole seconds to wait before trying again (at least 1).',
    required: true,
    schema: { type: 'integer', minimum: 1 },
  },
  CacheControl: {
    description: '`no-store`: answers to the API are never cached.',
    schema: { type: 'string' },
  },
  RateLimitLimit: {
    description:
      'The account’s request budget per window. On every answer once the key is checked; not on 401, nor on a 429 ' +
      'of the per-IP limit.',
    schema: { type: 'integer', minimum: 0 },
  },
  RateLimitRemaining: {
    description: 'What is left of the account’s budget in the current window, this request counted.',
    schema: { type: 'integer', minimum: 0 },
  },
};
const header = (name: string): Json => HEADERS[name]!;
/** The error envelope with the codes it can carry (in the description and in `x-error-codes`). */
const envelope = (description: string, codes: string[], headers?: Json): Json => ({
  description: `${description} Codes: ${codes.map(code).join(', ')}.`,
  ...(headers ? { headers } : {}),
  content: { 'application/json': { schema: ref('ProviderError') } },
  'x-error-codes': codes,
});
const retryAfter: Json = { 'Retry-After': header('RetryAfter') };

/**
 * The platform guard's headers (http/auth.ts): `Cache-Control: no-store` on its answers, the
 * rate-limit headers once the account is known (not on 401, nor on a 429 of the per-IP limit).
 */
function withGuardHeaders(status: string, response: Json): Json {
  const headers: Json = {
    ...((response.headers as Json | undefined) ?? {}),
    'Cache-Control': header('CacheControl'),
    ...(status === '401'
      ? {}
      : { 'RateLimit-Limit': header('RateLimitLimit'), 'RateLimit-Remaining': header('RateLimitRemaining') }),
  };
  return { ...response, headers };
}

const COMMON: Json = {
  '401': envelope('The API key is missing or invalid.', ['auth.unauthenticated']),
  '403': envelope(
    'The key is valid but the account may not use this endpoint (only update, cancel and return need a capability ' +
      'beyond the key).',
    ['auth.forbidden'],
  ),
  '429': envelope('Too many requests.', ['request.rate_limited'], retryAfter),
  '500': envelope('An unexpected failure; nothing to fix on your side.', ['internal']),
  '503': envelope(
    'Unavailable for a moment (a store, or the callback host’s DNS, out of reach).',
    ['service.unavailable'],
    retryAfter,
  ),
};
const WITH_BODY: Json = {
  '413': envelope('The body is too large.', ['request.too_large']),
  '415': envelope('The body is not `application/json`.', ['request.unsupported_media_type']),
  '422': envelope('Fields break the contract; `fieldErrors` names each field with its messages.', ['request.invalid']),
};
const NOT_FOUND: Json = {
  '404': envelope('No such delivery for this account (another account’s is the same answer).', ['delivery.not_found']),
};
/** PATCH, cancel and return change the delivery with a compare-and-set: losing too many races is 503 `resource.busy`. */
const BUSY: Json = {
  '503': envelope(
    'Unavailable for a moment (a store out of reach), or another change of the same delivery holds it: try again ' +
      'after `Retry-After`.',
    ['service.unavailable', 'resource.busy'],
    retryAfter,
  ),
};

/** The 400 of an operation: a body that cannot be read, an id that makes the path not canonical. */
function badRequest(hasBody: boolean, namesDelivery: boolean): Json {
  const parts: Array<[string, string]> = [
    ...(hasBody
      ? ([
          ['request.malformed', 'the body is not valid JSON'],
          ['request.invalid', 'the body is nested too deeply to be read'],
          ['request.aborted', 'the client went away before its body was received'],
        ] as Array<[string, string]>)
      : []),
    ...(namesDelivery
      ? ([
          ['request.path_invalid', 'an id that makes the path not canonical, such as `..` or an encoded slash'],
        ] as Array<[string, string]>)
      : []),
  ];
  return {
    '400': envelope(
      `Bad request: ${parts.map(([name, when]) => `${when} (${code(name)})`).join('; ')}.`,
      parts.map(([name]) => name),
    ),
  };
}

const deliveryId: Json = {
  name: 'providerDeliveryId',
  in: 'path',
  required: true,
  schema: { type: 'string', minLength: 1 },
  description: 'Our delivery id, from the create answer.',
};
const body = (name: string): Json => ({
  required: true,
  content: { 'application/json': { schema: ref(name) } },
});
const retried = (yes: boolean, capability: string) =>
  `${yes ? 'The platform retries it automatically (at most 3 attempts)' : 'The platform does not retry it automatically'}; capability: ${capability}.`;

const op = (
  operationId: string,
  summary: string,
  description: string,
  extra: Json,
  responses: Json,
  tag = 'Deliveries',
): Json => ({
  tags: [tag],
  operationId,
  summary,
  description,
  ...extra,
  responses: Object.fromEntries(
    Object.entries({
      ...COMMON,
      ...badRequest('requestBody' in extra, JSON.stringify(extra.parameters ?? []).includes('providerDeliveryId')),
      ...responses,
    }).map(([status, response]) => [status, withGuardHeaders(status, response as Json)]),
  ),
});

const webhookResponses: Json = {
  '2XX': { description: 'Any 2xx completes the attempt.' },
  '408': { description: 'Retried.' },
  '429': {
    description: 'Retried; a Retry-After is honoured.',
    headers: { 'Retry-After': { schema: { type: 'string' }, description: 'Seconds or an HTTP date.' } },
  },
  '5XX': { description: 'Retried; a Retry-After on 503 is honoured.' },
  default: { description: 'Any other status: not retried until the configuration or payload is corrected.' },
};
const signature: Json = {
  name: 'X-Platform-Signature',
  in: 'header',
  required: true,
  schema: { type: 'string', pattern: '^[0-9a-f]{64}$' },
  description:
    'Lowercase hex HMAC-SHA256 of the exact UTF-8 bytes of the body, keyed with the account’s webhook secret: the whole ' +
    'string (`pwhsec_…`, prefix included) as its UTF-8 bytes, not base64-decoded. No `sha256=` prefix.',
};

export const providerApiDocument: Json = {
  openapi: '3.1.0',
  info: {
    title: 'Standard Delivery Provider Contract (provider API)',
    version: PROVIDER_CONTRACT.version,
    'x-contract-revision': PROVIDER_CONTRACT.revision,
    description: DESCRIPTION,
  },
  servers: [{ url: '/v1', description: 'The base URL of the environment ends in /v1.' }],
  security: [{ apiKey: [] }],
  tags: [
    { name: 'Deliveries', description: 'Create, read, update, cancel and return deliveries.' },
    { name: 'Webhooks', description: 'Test the webhook callback.' },
  ],
  'x-error-codes': Object.fromEntries(
    Object.entries(PROVIDER_ERROR_CODES).map(([name, { statuses, meaning }]) => [
      name,
      { statuses: [...statuses], description: meaning },
    ]),
  ),
  paths: {
    '/deliveries': {
      post: op(
        'createDelivery',
        'Create a delivery',
        'See “Create and idempotency” and “Callbacks” above. ' +
          retried(true, 'required, with the same idempotency key'),
        { requestBody: body('ProviderCreateDeliveryRequest') },
        {
          '200': json(
            'Accepted (`providerDeliveryId` set) or refused (`rejectionReason`); a replay gets the first answer.',
            ref('ProviderCreateDeliveryResponse'),
          ),
          ...WITH_BODY,
          '409': envelope('The idempotencyKey was used with a different payload or callback.', [
            'idempotency.payload_mismatch',
            'idempotency.callback_mismatch',
          ]),
        },
      ),
    },
    '/deliveries/{providerDeliveryId}/status': {
      get: op(
        'getDeliveryStatus',
        'The current status',
        'The status of the latest event sent, or a newer one. ' + retried(true, 'supportsPolling'),
        { parameters: [deliveryId] },
        { '200': json('The status.', ref('ProviderStatusResponse')), ...NOT_FOUND },
      ),
    },
    '/deliveries/{providerDeliveryId}/tracking': {
      get: op(
        'getDeliveryTracking',
        'Driver, location, tracking URL and estimate',
        'Unavailable data is null, never invented. ' + retried(true, 'the tracking fields declared'),
        { parameters: [deliveryId] },
        { '200': json('The tracking data.', ref('ProviderTrackingResponse')), ...NOT_FOUND },
      ),
    },
    '/deliveries/{providerDeliveryId}': {
      patch: op(
        'updateDelivery',
        'Update fields of a delivery',
        'See “Update” above. ' + retried(false, 'update capabilities'),
        { parameters: [deliveryId], requestBody: body('ProviderUpdateDeliveryRequest') },
        {
          '200': json('One boolean per field sent.', ref('ProviderUpdateDeliveryResponse')),
          ...WITH_BODY,
          ...NOT_FOUND,
          ...BUSY,
        },
      ),
    },
    '/deliveries/{providerDeliveryId}/cancel': {
      post: op(
        'cancelDelivery',
        'Cancel a delivery',
        'See “Cancellation” above. ' + retried(false, 'cancellation capability'),
        { parameters: [deliveryId], requestBody: body('ProviderCancelRequest') },
        {
          '200': json('Confirmed, or not with the reason.', ref('ProviderCancelResponse')),
          ...WITH_BODY,
          ...NOT_FOUND,
          ...BUSY,
        },
      ),
    },
    '/deliveries/{providerDeliveryId}/return': {
      post: op(
        'returnDelivery',
        'Return picked-up goods to the pickup',
        'See “Return to origin” above. ' + retried(false, 'supportsReturnToOrigin'),
        { parameters: [deliveryId], requestBody: body('ProviderReturnRequest') },
        {
          '200': json('Accepted, or not with the reason.', ref('ProviderReturnResponse')),
          ...WITH_BODY,
          ...NOT_FOUND,
          ...BUSY,
        },
      ),
    },
    '/webhooks/test': {
      post: op(
        'sendWebhookTest',
        'Send a signed test event to a callback',
        'Ours (the spec does not show these bodies): sends one `webhook.test` event (`ProviderWebhookTestEvent`), signed ' +
          'like every event, to `url` or else the account’s global webhook URL, in one attempt, and answers with the ' +
          'outcome (200 also when the callback failed). Changes no delivery and no setting. An empty body is read as `{}`.' +
          `\n\n**One deadline**: ${T.deadlineSeconds} seconds for the whole call — the check of a given \`url\`’s host ` +
          '(its name resolution, at most 2 seconds of it), then the connection and the callback’s answer in what is left — ' +
          'so the answer comes well inside the platform’s 15-second timeout; a callback that has not answered by then is ' +
          'reported as a timeout (`delivered: false`, `responseStatus: null`).' +
          `\n\n**Repeats send nothing**: the platform retries this call automatically, so the same test (same account, same ` +
          `target URL: \`url\`, or the global one) within ${T.dedupeWindowSeconds} seconds of the first answers the first ` +
          'test’s outcome (the same `testId`) without a second event. A repeat arriving while the first still runs waits ' +
          `for its outcome (at most ${T.repeatWaitSeconds} seconds from its own start); should the first never finish (its ` +
          'instance stopped), the repeat answers `delivered: false` with that reason and sends nothing. Shared by every ' +
          'instance (kept in Redis; without Redis a test is sent each time). After the window, a call sends a new event. ' +
          retried(true, 'webhook providers'),
        { requestBody: { ...body('ProviderWebhookTestRequest'), required: false } },
        { '200': json('The outcome of the attempt.', ref('ProviderWebhookTestResponse')), ...WITH_BODY },
        'Webhooks',
      ),
    },
  },
  webhooks: {
    deliveryEvent: {
      post: {
        tags: ['Webhooks'],
        operationId: 'deliveryEvent',
        summary: 'A delivery event, sent to the delivery’s callback',
        description:
          'See “Webhook events” above. No Authorization header: the callback token and the signature are the proof.',
        security: [],
        parameters: [signature],
        requestBody: body('ProviderWebhookEvent'),
        responses: webhookResponses,
      },
    },
    webhookTest: {
      post: {
        tags: ['Webhooks'],
        operationId: 'webhookTestEvent',
        summary: 'The event of `POST /webhooks/test`',
        description: 'Signed like every event; it concerns no delivery. Sent once, not retried.',
        security: [],
        parameters: [signature],
        requestBody: body('ProviderWebhookTestEvent'),
        responses: webhookResponses,
      },
    },
  },
  components: {
    securitySchemes: {
      apiKey: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'API key',
        description: 'The account’s API key for this environment: `Authorization: Bearer <API_KEY>`.',
      },
    },
    schemas: {
      ProviderCreateDeliveryRequest: requestSchemas.ProviderCreateDeliveryRequest,
      ProviderUpdateDeliveryRequest: requestSchemas.ProviderUpdateDeliveryRequest,
      ProviderCancelRequest: requestSchemas.ProviderCancelRequest,
      ProviderReturnRequest: requestSchemas.ProviderReturnRequest,
      ProviderWebhookTestRequest: requestSchemas.ProviderWebhookTestRequest,
      ...providerSchemas,
    },
  },
};
