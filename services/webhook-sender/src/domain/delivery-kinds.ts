import { PARTNER_WEBHOOK_POLICY, PROVIDER_CALLBACK_POLICY, scaledPolicy, type RetryPolicy } from './retry-policy';
import { marketplaceSigner, platformSigner, type Signer } from './signing';

/**
 * How each kind of delivery is signed, labelled and retried; everything else (queue, tiers,
 * scheduler, outbound safety, records) is shared.
 * - `partner-webhook`: the Partner API's webhooks (X-Marketplace-* headers, 2 min ×3 up to 12 h).
 * - `provider-callback`: the delivery-provider contract's callbacks to platforms, fed by
 *   provider-delivery's `provider-events` (X-Platform-Signature over the body, 30 s ×2 up to
 *   10 min, Retry-After, `application/json; charset=utf-8` as the contract asks of every request).
 */
export interface DeliveryKind {
  signer: Signer;
  policy: RetryPolicy;
  /** The Content-Type of every attempt (the body is UTF-8 JSON either way). */
  contentType: string;
}

export const DELIVERY_KIND_NAMES = ['partner-webhook', 'provider-callback'] as const;
export type DeliveryKindName = (typeof DELIVERY_KIND_NAMES)[number];
export type DeliveryKinds = Record<DeliveryKindName, DeliveryKind>;

/** `timeScale` divides every delay (tests and demos run the whole schedule in seconds). */
export function deliveryKinds(timeScale: number): DeliveryKinds {
  return {
    'partner-webhook': {
      signer: marketplaceSigner,
      policy: scaledPolicy(PARTNER_WEBHOOK_POLICY, timeScale),
      contentType: 'application/json',
    },
    'provider-callback': {
      signer: platformSigner,
      policy: scaledPolicy(PROVIDER_CALLBACK_POLICY, timeScale),
      contentType: 'application/json; charset=utf-8',
    },
  };
}
