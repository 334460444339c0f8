import { createHmac } from 'node:crypto';
import { PARTNER_WEBHOOK_POLICY, PROVIDER_CALLBACK_POLICY, nominalDelayMs } from './retry-policy';
import { marketplaceSigner, platformSigner } from './signing';
import { DELIVERY_KIND_NAMES, deliveryKinds } from './delivery-kinds';
import { RETRY_TIER_TOPICS } from './retry-tiers';

describe('deliveryKinds', () => {
  it('has both kinds, each with its own signer and policy', () => {
    const kinds = deliveryKinds(1);
    expect(Object.keys(kinds).sort()).toEqual([...DELIVERY_KIND_NAMES].sort());
    expect(kinds['partner-webhook']).toEqual({
      signer: marketplaceSigner,
      policy: PARTNER_WEBHOOK_POLICY,
      contentType: 'application/json',
    });
    expect(kinds['provider-callback']).toEqual({
      signer: platformSigner,
      policy: PROVIDER_CALLBACK_POLICY,
      contentType: 'application/json; charset=utf-8',
    });
  });

  it('signs a provider callback with X-Platform-Signature over the body alone', () => {
    const body = Buffer.from('{"eventType":"delivery.delivered","status":"delivered"}');
    expect(deliveryKinds(1)['provider-callback'].signer.headers('whsec_x', 'dlv_1', 1_700_000_000, body)).toEqual({
      'X-Platform-Signature': createHmac('sha256', 'whsec_x').update(body).digest('hex'),
    });
  });

  it('divides every delay of both kinds by the time scale, Retry-After cap included', () => {
    const kinds = deliveryKinds(10_000);
    for (let n = 1; n <= 8; n++) {
      for (const [kind, policy] of [
        ['partner-webhook', PARTNER_WEBHOOK_POLICY],
        ['provider-callback', PROVIDER_CALLBACK_POLICY],
      ] as const) {
        const nominal = nominalDelayMs(policy, n);
        expect(nominalDelayMs(kinds[kind].policy, n)).toBe(nominal === undefined ? undefined : nominal / 10_000);
      }
    }
    expect(kinds['provider-callback'].policy.retryAfter).toEqual({
      capMs: 360,
      timeScale: 10_000,
    });
    expect(kinds['partner-webhook'].policy.retryAfter).toBeUndefined();
  });

  it('gives every retry of every kind its own tier topic', () => {
    for (const name of DELIVERY_KIND_NAMES) {
      expect(deliveryKinds(1)[name].policy.maxAttempts - 1).toBeLessThanOrEqual(RETRY_TIER_TOPICS.length);
    }
  });
});
