import {
  type JsonSchema,
  arrayOf,
  dateTime,
  nullable,
  nullableDateTime,
  nullableStr,
  object,
  ref,
  str,
  uuid,
} from '../json-schema';

/**
 * The Partner API extension's webhook deliveries (owner: webhook-sender; ours, not the spec's): an
 * installation's own deliveries, each with its attempts, and one with the body exactly as sent.
 */

/** What became of a delivery, in the order the lists show them. */
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'dead_lettered', 'cancelled'] as const;

/** Why an attempt got no response. */
export const WEBHOOK_ATTEMPT_ERRORS = [
  'timeout',
  'connect',
  'dns',
  'refused_address',
  'tls',
  'reset',
  'other',
] as const;

const DELIVERY_FIELDS: Record<string, JsonSchema> = {
  id: uuid(
    'The delivery id: the envelope `id`, `X-Marketplace-Event-Id` and `webhook-id`; stable across retries and redeliveries.',
  ),
  installationId: uuid('The installation it goes to: always the caller.'),
  type: str('The event type, for example `orders.created`.'),
  status: ref('WebhookDeliveryStatus'),
  reason: nullableStr('Why it ended without success (failed, dead-lettered or cancelled); null otherwise.'),
  round: { type: 'integer', minimum: 1, description: '1, plus one per redelivery.' },
  attemptCount: { type: 'integer', minimum: 0, description: 'Attempts made, over every round.' },
  nextAttemptAt: nullableDateTime('When the next attempt is due; null once the delivery has ended.'),
  occurredAt: dateTime('When the event happened (the envelope `occurredAt`).'),
  createdAt: dateTime('When the delivery was created: the order of the list, newest first.'),
  updatedAt: dateTime(),
  attempts: arrayOf(ref('WebhookDeliveryAttempt'), 'Every attempt, oldest first.'),
};

export const partnerWebhookDeliverySchemas: Record<string, JsonSchema> = {
  WebhookDeliveryStatus: {
    type: 'string',
    enum: [...WEBHOOK_DELIVERY_STATUSES],
    description:
      '`pending` (an attempt is due or running), `delivered` (a 2xx), `failed` (a final 4xx), `dead_lettered` (8 ' +
      'attempts without success), `cancelled` (the installation stopped receiving it).',
  },
  WebhookDeliveryAttempt: object(
    {
      round: { type: 'integer', minimum: 1 },
      attempt: { type: 'integer', minimum: 1, maximum: 8, description: 'The attempt of its round, 1 the first.' },
      at: dateTime('When the attempt was made.'),
      statusCode: nullable({ type: 'integer' }, "The receiver's HTTP status; null when no response came."),
      latencyMs: { type: 'integer', minimum: 0, description: 'How long the attempt took, in milliseconds.' },
      errorClass: nullable(
        { type: 'string', enum: [...WEBHOOK_ATTEMPT_ERRORS] },
        'The network error when no response came (`timeout`, `connect`, `dns`, ...); null when one came.',
      ),
      verdict: {
        type: 'string',
        enum: ['delivered', 'retry', 'permanent'],
        description: 'What the attempt meant: delivered, to be retried, or final.',
      },
    },
    'One attempt: never its headers, signature or body.',
  ),
  WebhookDelivery: object(DELIVERY_FIELDS, 'One webhook delivery of the installation, with its attempts.'),
  WebhookDeliveryDetail: object(
    {
      ...DELIVERY_FIELDS,
      body: str(
        'The webhook body exactly as every attempt sent it (JSON text, byte for byte): verify a signature over it, ' +
          'or replay it.',
      ),
    },
    'One webhook delivery of the installation, with its attempts and its body.',
  ),
};
