import { paymentSucceeded, postProcessorNotification, type ProcessorNotificationOptions } from '@marketplace/testing';
import type { OrderingCluster, Restaurant } from './cluster';

/** The restaurant's payment processor: its secret (rotated through the tenant API), and what it sends. */
export interface TestProcessor {
  secret: string;
  notificationUrl: string;
  send(body: unknown, options?: ProcessorNotificationOptions): ReturnType<typeof postProcessorNotification>;
  /** A `payment.succeeded` of `amountMinor` for the order (overrides: other fields, the event id). */
  confirm(
    orderId: string,
    amountMinor: number,
    overrides?: Record<string, unknown>,
  ): ReturnType<typeof postProcessorNotification>;
}

export async function paymentProcessor(cluster: OrderingCluster, r: Restaurant): Promise<TestProcessor> {
  const rotated = await r.manage('POST', '/payment-processor/secret/rotate');
  if (rotated.status !== 200) throw new Error(`processor secret: ${rotated.status} ${JSON.stringify(rotated.body)}`);
  const secret: string = rotated.body.secret;
  const send = (body: unknown, options?: ProcessorNotificationOptions) =>
    postProcessorNotification(cluster.gateway.url, r.tenantId, secret, body, options);
  return {
    secret,
    notificationUrl: rotated.body.notificationUrl,
    send,
    confirm: (orderId, amountMinor, overrides) => send(paymentSucceeded(orderId, amountMinor, overrides)),
  };
}
