/**
 * Our extension of the Partner API v1 (not the specification's): an installation's own webhook
 * deliveries, listed, read with their attempts and the body as sent, and redelivered. Owned by
 * webhook-sender (services/webhook-sender/src/http/partner-routes.ts); the gateway's routes are in
 * domain/partner-extension-routes.ts. partner-api.ts adds these paths and the tag to the Partner API
 * document, handing in its builders (so this file imports nothing of it).
 */
import { arrayOf, ref, uuid } from '@marketplace/contracts';

/** A JSON object of the document (the same as partner-api.ts's, which imports this file). */
type Json = Record<string, unknown>;

/** The tag of the extension's operations. */
export const WEBHOOK_DELIVERIES_TAG = 'Webhook deliveries';

export const WEBHOOK_DELIVERIES_TAG_DESCRIPTION =
  "An extension of v1: ours, not the specification's. The installation's own webhook deliveries, each with its " +
  'attempts (time, HTTP status or network error, duration, next attempt), one with the body exactly as sent, and ' +
  'a redelivery. Any valid API key of the installation may call them: they need no scope and grant none. Only the ' +
  "caller's own deliveries: another installation's, or another tenant's, is the same 404 as an unknown one. Rate " +
  'limits, idempotency and errors as every other operation.';

/** The tag of the sandbox's operation (ours too). */
export const SANDBOX_TAG = 'Sandbox';

export const SANDBOX_TAG_DESCRIPTION =
  "An extension of v1: ours, not the specification's. A sandbox tenant's installation drives scripted scenarios: the " +
  'sandbox does what the restaurant would (accept, reject or cancel an order; assign or reassign a delivery), makes ' +
  "the installation's next webhooks fail, or rotates its signing secret, through the same services, rules and signed " +
  'webhooks as production. Only for installations of a sandbox tenant (403 `sandbox.not_a_sandbox` otherwise); any ' +
  'valid API key of the installation, no scope.';

/** The codes of a redelivery's 409, beyond the idempotency conflicts. */
export const REDELIVERY_CONFLICT_CODES = ['webhook.delivery_in_progress', 'webhook.installation_not_receiving'];

/** What partner-api.ts hands in: its operation builders and references. */
export interface ExtensionBuilders {
  get(spec: ExtensionOperation): Json;
  post(spec: ExtensionOperation): Json;
  jsonBody(schemaName: string, description: string): Json;
  jsonResponse(description: string, schema: Json, headers?: Json): Json;
  problem(codes: string[], description: string): Json;
  parameterRef(name: string): Json;
  responseRef(name: string): Json;
  /** The idempotency conflicts every POST answers 409 with. */
  idempotencyConflictCodes: string[];
  /** `Idempotent-Replayed` on the success of a POST. */
  mutatingSuccessHeaders: Json;
}

export interface ExtensionOperation {
  tag: typeof WEBHOOK_DELIVERIES_TAG | typeof SANDBOX_TAG;
  operationId: string;
  summary: string;
  description: string;
  /** None: any valid key of the installation. */
  scopes: [];
  parameters?: Json[];
  requestBody?: Json;
  success: Record<string, Json>;
  errors: Record<string, Json>;
}

/** The extension's path parameters and query parameters, for `components.parameters`. */
export const EXTENSION_PARAMETERS: Record<string, Json> = {
  DeliveryId: { name: 'deliveryId', in: 'path', required: true, schema: uuid() },
  WebhookDeliveryStatusFilter: {
    name: 'status',
    in: 'query',
    required: false,
    description: 'Only deliveries in this status (`dead_lettered`: those that failed all 8 attempts).',
    schema: ref('WebhookDeliveryStatus'),
  },
  WebhookDeliveryLimit: {
    name: 'limit',
    in: 'query',
    required: false,
    description: 'At most this many deliveries, the newest (1 to 200).',
    schema: { type: 'integer', minimum: 1, maximum: 200, default: 50 },
  },
};

/** The three operations, by path. */
// eslint-disable-next-line max-lines-per-function -- data
export function webhookDeliveryPaths(b: ExtensionBuilders, prefix: string): Json {
  const tag = WEBHOOK_DELIVERIES_TAG;
  const notFound = b.problem(
    ['resource.not_found'],
    "Not found (`resource.not_found`): no such delivery of the caller's installation (an unknown id, or another " +
      "installation's or tenant's delivery: the cases are indistinguishable).",
  );
  const conflicts = [...REDELIVERY_CONFLICT_CODES, ...b.idempotencyConflictCodes];
  return {
    [`${prefix}/webhooks/deliveries`]: b.get({
      tag,
      operationId: 'listWebhookDeliveries',
      summary: "List the installation's webhook deliveries",
      description:
        "The installation's webhook deliveries, newest first (by `createdAt`), each with its status and attempts, " +
        'without its body. `status` keeps one status; `limit` caps the list (default 50, at most 200). A ' +
        'redelivery keeps its delivery in its place: the same id, `round` one higher.',
      scopes: [],
      parameters: [b.parameterRef('WebhookDeliveryStatusFilter'), b.parameterRef('WebhookDeliveryLimit')],
      success: { '200': b.jsonResponse('The deliveries, newest first.', arrayOf(ref('WebhookDelivery'))) },
      errors: {
        '400': b.problem(
          ['request.invalid'],
          'Bad request (`request.invalid`): `status` or `limit` is invalid; `errors` names each.',
        ),
      },
    }),
    [`${prefix}/webhooks/deliveries/{deliveryId}`]: b.get({
      tag,
      operationId: 'getWebhookDelivery',
      summary: 'Get a webhook delivery with its attempts and body',
      description:
        'One delivery of the installation with every attempt and `body`, the webhook body exactly as every attempt ' +
        'sent it (JSON text): a signature computed over it with the signing secret verifies, and it can be replayed ' +
        "byte for byte. Another installation's delivery is 404 `resource.not_found`, as an unknown one.",
      scopes: [],
      parameters: [b.parameterRef('DeliveryId')],
      success: { '200': b.jsonResponse('The delivery.', ref('WebhookDeliveryDetail')) },
      errors: { '404': notFound },
    }),
    [`${prefix}/webhooks/deliveries/{deliveryId}/redeliver`]: b.post({
      tag,
      operationId: 'redeliverWebhookDelivery',
      summary: 'Redeliver a webhook',
      description:
        'Sends a delivery that has ended again, as a new round with the whole retry schedule: the same id and body, a ' +
        'fresh timestamp and signature. 409 `webhook.delivery_in_progress` while it is still being attempted, 409 ' +
        '`webhook.installation_not_receiving` when the installation no longer receives its type. Another ' +
        "installation's delivery is 404 `resource.not_found`, as an unknown one.",
      scopes: [],
      parameters: [b.parameterRef('DeliveryId')],
      success: {
        '202': b.jsonResponse('The delivery, pending again.', ref('WebhookDelivery'), b.mutatingSuccessHeaders),
      },
      errors: {
        '404': notFound,
        '409': b.problem(conflicts, `Conflict. Codes: ${conflicts.map((code) => `\`${code}\``).join(', ')}.`),
      },
    }),
  };
}

/**
 * The sandbox's scenarios: one operation, its table of scenarios in the description (handed in:
 * domain/sandbox.ts holds it for the gateway, which answers it).
 */
export function sandboxPaths(b: ExtensionBuilders, prefix: string, table: string): Json {
  return {
    [`${prefix}/sandbox/scenarios`]: b.post({
      tag: SANDBOX_TAG,
      operationId: 'runSandboxScenario',
      summary: 'Run a sandbox scenario',
      description:
        'The sandbox does what the restaurant would, at once, and answers what it did, the webhooks that follow and the ' +
        "outcome: the order or the assignment as the tenant API answers it (the tenant API's refusal when the order's " +
        'state does not allow it: 404, 409 or 422 with its code), or the new signing secret. A repeat with the same ' +
        '`Idempotency-Key` answers the first outcome and runs nothing, but `secret.rotate`, which is never stored (a ' +
        `repeat rotates again).\n\n${table}`,
      scopes: [],
      requestBody: b.jsonBody('SandboxScenarioRequest', 'The scenario and what it acts on.'),
      success: {
        '200': b.jsonResponse('What the scenario did.', ref('SandboxScenarioResult'), b.mutatingSuccessHeaders),
      },
      errors: {
        '403': b.problem(
          ['sandbox.not_a_sandbox', 'auth.insufficient_scope'],
          'Forbidden (`sandbox.not_a_sandbox`): the installation is not one of a sandbox tenant. (`auth.insufficient_scope` ' +
            'is never sent here: the sandbox asks no scope.)',
        ),
        '409': b.problem(
          b.idempotencyConflictCodes,
          `Conflict. Codes: ${b.idempotencyConflictCodes.map((code) => `\`${code}\``).join(', ')} (and the tenant ` +
            "API's own conflicts of the scenario's action, passed on as they are).",
        ),
      },
    }),
  };
}
