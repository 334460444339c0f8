import { createHmac, randomUUID } from 'node:crypto';

/**
 * A tenant's payment processor, as the tests and the demo play it: it signs a notification the way
 * the tenant API's documentation says (HMAC-SHA256 with the processor secret over
 * `{timestamp}.{raw body}`, lowercase hex) and posts it to the gateway. Written apart from the
 * gateway's own code, so that a test checks the documented scheme, not the code against itself.
 */
export interface ProcessorNotificationOptions {
  /** Unix seconds of the signature (default: now). */
  timestamp?: number;
  /** A signature to send instead of the right one. */
  signature?: string;
  /** Sign with this secret instead. */
  signWith?: string;
}

export const processorSignatureOf = (secret: string, timestamp: number | string, rawBody: string): string =>
  createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex');

export async function postProcessorNotification(
  gatewayUrl: string,
  tenantId: string,
  secret: string,
  body: unknown,
  options: ProcessorNotificationOptions = {},
): Promise<{ status: number; body: any; text: string }> {
  const raw = typeof body === 'string' ? body : JSON.stringify(body);
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  const response = await fetch(`${gatewayUrl}/api/payments/v1/tenants/${tenantId}/notifications`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-processor-timestamp': String(timestamp),
      'x-processor-signature': options.signature ?? processorSignatureOf(options.signWith ?? secret, timestamp, raw),
    },
    body: raw,
    signal: AbortSignal.timeout(15_000),
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, body: parsed, text };
}

/** A `payment.succeeded` notification for an order (a new event id unless given). */
export const paymentSucceeded = (
  orderId: string,
  amountMinor: number,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> => ({
  eventId: `evt_${randomUUID()}`,
  type: 'payment.succeeded',
  orderId,
  amountMinor,
  currencyCode: 'EUR',
  paymentReference: `pay_${randomUUID().slice(0, 12)}`,
  occurredAt: new Date().toISOString(),
  ...overrides,
});
