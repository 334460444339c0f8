import { Webhook } from 'standardwebhooks';
import { marketplaceSigner, platformSigner } from '../../../services/webhook-sender/src/domain/signing';
import {
  constructMarketplaceEvent,
  signMarketplaceWebhook,
  signPlatformCallback,
  verifyMarketplaceWebhook,
  verifyPlatformCallback,
  verifyStandardWebhook,
  WebhookVerificationError,
} from '../src';

// The package against the headers the webhook sender's own signers produce (the code that signs
// every real attempt), and against each way a webhook can be forged, stale or malformed.

// Secrets as the gateway mints them: whsec_ and standard base64 of 32 bytes.
const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
const OTHER = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
const NOW = 1_790_000_000;
const body = Buffer.from(
  '{"id":"9f0c","type":"orders.created","version":1,"occurredAt":"2026-09-19T12:00:00Z","data":{"ü":1}}',
);
const senderHeaders = () => marketplaceSigner.headers(SECRET, '9f0c', NOW, body);
const at = (seconds: number) => seconds * 1000;

describe('verifyMarketplaceWebhook', () => {
  it("accepts the sender's own headers over the raw bytes, with any header casing", () => {
    const headers = senderHeaders();
    expect(verifyMarketplaceWebhook({ body, headers, secret: SECRET, now: at(NOW) })).toEqual({
      ok: true,
      eventId: '9f0c',
      timestamp: NOW,
    });
    const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
    expect(verifyMarketplaceWebhook({ body, headers: lower, secret: SECRET, now: at(NOW) }).ok).toBe(true);
    expect(verifyMarketplaceWebhook({ body, headers: new Headers(headers), secret: SECRET, now: at(NOW) }).ok).toBe(
      true,
    );
    expect(verifyMarketplaceWebhook({ body: body.toString('utf8'), headers, secret: SECRET, now: at(NOW) }).ok).toBe(
      true,
    );
  });

  it('refuses a body changed after signing, even by re-serializing it', () => {
    const reserialized = JSON.stringify(JSON.parse(body.toString('utf8')), null, 1);
    const result = verifyMarketplaceWebhook({
      body: reserialized,
      headers: senderHeaders(),
      secret: SECRET,
      now: at(NOW),
    });
    expect(result).toMatchObject({ ok: false, reason: 'signature_mismatch' });
  });

  it('refuses another secret, and accepts either of two during a rotation', () => {
    expect(verifyMarketplaceWebhook({ body, headers: senderHeaders(), secret: OTHER, now: at(NOW) })).toMatchObject({
      ok: false,
      reason: 'signature_mismatch',
    });
    expect(verifyMarketplaceWebhook({ body, headers: senderHeaders(), secret: [OTHER, SECRET], now: at(NOW) }).ok).toBe(
      true,
    );
  });

  it('holds the timestamp to 5 minutes either way by default, or to the tolerance given', () => {
    const headers = senderHeaders();
    expect(verifyMarketplaceWebhook({ body, headers, secret: SECRET, now: at(NOW + 300) }).ok).toBe(true);
    expect(verifyMarketplaceWebhook({ body, headers, secret: SECRET, now: at(NOW - 300) }).ok).toBe(true);
    expect(verifyMarketplaceWebhook({ body, headers, secret: SECRET, now: at(NOW + 301) })).toMatchObject({
      reason: 'timestamp_out_of_tolerance',
    });
    expect(
      verifyMarketplaceWebhook({ body, headers, secret: SECRET, now: at(NOW + 61), toleranceSeconds: 60 }).ok,
    ).toBe(false);
  });

  it('refuses a timestamp that is not the signed one', () => {
    const headers = { ...senderHeaders(), 'X-Marketplace-Timestamp': String(NOW + 1) };
    expect(verifyMarketplaceWebhook({ body, headers, secret: SECRET, now: at(NOW) })).toMatchObject({
      reason: 'signature_mismatch',
    });
  });

  it.each([
    ['no signature', { 'X-Marketplace-Signature': undefined }, 'missing_header'],
    ['no timestamp', { 'X-Marketplace-Timestamp': undefined }, 'missing_header'],
    ['a fractional timestamp', { 'X-Marketplace-Timestamp': `${NOW}.5` }, 'malformed_timestamp'],
    [
      'a sha256= prefix',
      { 'X-Marketplace-Signature': `sha256=${senderHeaders()['X-Marketplace-Signature']}` },
      'malformed_signature',
    ],
    [
      'uppercase hex',
      { 'X-Marketplace-Signature': senderHeaders()['X-Marketplace-Signature']!.toUpperCase() },
      'malformed_signature',
    ],
    ['a short signature', { 'X-Marketplace-Signature': 'ab'.repeat(16) }, 'malformed_signature'],
  ])('refuses %s', (_name, change, reason) => {
    const headers = { ...senderHeaders(), ...change };
    expect(verifyMarketplaceWebhook({ body, headers, secret: SECRET, now: at(NOW) })).toMatchObject({
      ok: false,
      reason,
    });
  });

  it('refuses to check with no secret', () => {
    expect(verifyMarketplaceWebhook({ body, headers: senderHeaders(), secret: '', now: at(NOW) })).toMatchObject({
      reason: 'no_secret',
    });
  });
});

describe('constructMarketplaceEvent and signMarketplaceWebhook', () => {
  it('parses an authentic webhook and throws on a forged one', () => {
    expect(constructMarketplaceEvent({ body, headers: senderHeaders(), secret: SECRET, now: at(NOW) })).toMatchObject({
      id: '9f0c',
      type: 'orders.created',
    });
    expect(() => constructMarketplaceEvent({ body, headers: senderHeaders(), secret: OTHER, now: at(NOW) })).toThrow(
      WebhookVerificationError,
    );
  });

  it('signs a test payload exactly as the sender does, the rotation overlap included', () => {
    expect(signMarketplaceWebhook({ body, secret: SECRET, timestamp: NOW, eventId: '9f0c' })).toEqual(senderHeaders());
    expect(
      signMarketplaceWebhook({ body, secret: SECRET, previousSecret: OTHER, timestamp: NOW, eventId: '9f0c' }),
    ).toEqual(marketplaceSigner.headers(SECRET, '9f0c', NOW, body, OTHER));
  });
});

describe('verifyStandardWebhook', () => {
  const realNow = Math.floor(Date.now() / 1000);
  const sent = (previous?: string) => marketplaceSigner.headers(SECRET, '9f0c', realNow, body, previous);

  it("accepts the sender's webhook-* headers, as the standardwebhooks library does with the same secret", () => {
    expect(verifyStandardWebhook({ body, headers: sent(), secret: SECRET })).toEqual({
      ok: true,
      id: '9f0c',
      timestamp: realNow,
    });
    expect(new Webhook(SECRET).verify(body, sent())).toMatchObject({ id: '9f0c' });
  });

  it('accepts the old and the new secret during a rotation overlap, and refuses a third', () => {
    const headers = sent(OTHER);
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(verifyStandardWebhook({ body, headers, secret: OTHER }).ok).toBe(true);
    expect(verifyStandardWebhook({ body, headers, secret: SECRET }).ok).toBe(true);
    const third = `whsec_${Buffer.alloc(32, 1).toString('base64')}`;
    expect(verifyStandardWebhook({ body, headers, secret: third })).toMatchObject({ reason: 'signature_mismatch' });
  });

  it('refuses a changed body and a stale timestamp', () => {
    const changed = Buffer.from(body.toString('utf8').replace('9f0c', '9f0d'));
    expect(verifyStandardWebhook({ body: changed, headers: sent(), secret: SECRET }).ok).toBe(false);
    expect(verifyStandardWebhook({ body, headers: sent(), secret: SECRET, now: (realNow + 301) * 1000 })).toMatchObject(
      { reason: 'timestamp_out_of_tolerance' },
    );
  });
});

describe('verifyPlatformCallback and signPlatformCallback', () => {
  const secret = 'pwhsec_Vd2bS0mQ3kX9pL1rT6uW8yZ0aC2eG4iK6mO8qS0uW2y';
  const callback = Buffer.from(
    '{"eventType":"delivery.accepted","platformReference":"p-1","status":"provider_accepted"}',
  );
  const sent = () => platformSigner.headers(secret, 'ignored', NOW, callback);

  it("accepts the sender's X-Platform-Signature over the raw bytes, from headers or the value itself", () => {
    expect(verifyPlatformCallback({ body: callback, headers: sent(), secret }).ok).toBe(true);
    expect(verifyPlatformCallback({ body: callback, headers: sent()['X-Platform-Signature']!, secret }).ok).toBe(true);
    expect(signPlatformCallback({ body: callback, secret })).toEqual(sent());
  });

  it('refuses a changed body, another secret, a prefix and a missing header', () => {
    const changed = Buffer.from(callback.toString('utf8').replace('p-1', 'p-2'));
    expect(verifyPlatformCallback({ body: changed, headers: sent(), secret })).toMatchObject({
      reason: 'signature_mismatch',
    });
    expect(verifyPlatformCallback({ body: callback, headers: sent(), secret: `${secret}x` }).ok).toBe(false);
    const prefixed = `sha256=${sent()['X-Platform-Signature']}`;
    expect(verifyPlatformCallback({ body: callback, headers: prefixed, secret })).toMatchObject({
      reason: 'malformed_signature',
    });
    expect(verifyPlatformCallback({ body: callback, headers: {}, secret })).toMatchObject({ reason: 'missing_header' });
  });
});
