import { type JsonSchema, dateTime, object, str, uuid } from '../json-schema';

/** Webhook bodies (owner: webhook-sender): the envelope and the data of each event type. */
export const webhookSchemas: Record<string, JsonSchema> = {
  WebhookEnvelope: object(
    {
      id: str('Delivery id, stable across retries; equals `X-Marketplace-Event-Id`. Deduplicate by it.'),
      type: str('Event type.'),
      version: { type: 'integer', const: 1, description: 'Envelope version.' },
      occurredAt: dateTime(),
      data: { type: 'object', description: 'Per event type.' },
    },
    { closed: false, description: 'The body of every webhook request.' },
  ),
  OrdersCreatedData: object(
    { orderId: uuid(), orderNumber: str(), status: str('Status name, for example `Pending`.') },
    {
      closed: false,
      description: 'Order summary. Fields beyond orderId, orderNumber and status are not part of this contract.',
    },
  ),
  OrdersCancelledData: object(
    { orderId: uuid(), orderNumber: str(), externalOrderId: str(), status: str('Status name: `Cancelled`.') },
    { closed: true, description: 'Identifiers only: no customer data, address, financial data or free-text reason.' },
  ),
  PaymentCompletedData: {
    type: 'object',
    description: 'Payment or order summary; its fields are not part of this contract.',
  },
  DeliveryEventData: object(
    { orderId: uuid(), orderNumber: str(), assignmentId: uuid() },
    { closed: true, description: 'Identifiers only: no customer data, address, financial data or free-text reason.' },
  ),
  SystemTestData: { type: 'object', description: 'No business data.' },
};
