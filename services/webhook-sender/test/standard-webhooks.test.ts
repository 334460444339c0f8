// A unit test beside the integration tests: it needs the standardwebhooks library, which the
// domain (src/domain/, pure by rule) may not import.
import { createHmac, randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { marketplaceSigner, standardWebhookKey, standardWebhookSignature } from '../src/domain/signing';

// The partner-webhook headers checked by the Standard Webhooks reference library, with the secret
// string exactly as the gateway hands it out at connect (`whsec_` and standard base64 of 32 bytes).
const minted = () => `whsec_${randomBytes(32).toString('base64')}`;
/** The secret shape minted before the Standard Webhooks headers: base64url, no padding. */
// A secret in the shape minted before: base64url without padding. Its bytes are fixed so that it
// holds both `-` and `_` (0xfb 0xfb 0xfb is `-_v7`): a random one holds neither about one time in
// four, and the library's standard decoder then takes it.
const mintedBefore = () => `whsec_${Buffer.alloc(32, 0xfb).toString('base64url')}`;
const now = () => Math.floor(Date.now() / 1000);
const body = Buffer.from('{"id":"evt_1","type":"orders.created","version":1,"data":{"orderNumber":"Ü-42"}}');
const headersFor = (secret: string, previous?: string) =>
  marketplaceSigner.headers(secret, 'evt_1', now(), body, previous);

describe('Standard Webhooks headers of a partner webhook', () => {
  it('verify with the standardwebhooks library and the secret string given at connect', () => {
    const secret = minted();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const headers = headersFor(secret);
    expect(new Webhook(secret).verify(body.toString('utf8'), headers)).toEqual(JSON.parse(body.toString('utf8')));
    expect(new Webhook(secret).verify(body, headers)).toBeDefined();
  });

  it('carry the event id and the same Unix seconds as the X-Marketplace headers', () => {
    const headers = headersFor(minted());
    expect(headers['webhook-id']).toBe(headers['X-Marketplace-Event-Id']);
    expect(headers['webhook-timestamp']).toBe(headers['X-Marketplace-Timestamp']);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
  });

  it('are refused for an altered body, another secret, another id or another timestamp', () => {
    const secret = minted();
    const headers = headersFor(secret);
    expect(() => new Webhook(secret).verify(`${body.toString('utf8')} `, headers)).toThrow(/No matching signature/);
    expect(() => new Webhook(minted()).verify(body, headers)).toThrow(/No matching signature/);
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': 'evt_2' })).toThrow();
    const later = String(Number(headers['webhook-timestamp']) + 1);
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-timestamp': later })).toThrow();
  });

  it('verify with either secret during a rotation overlap, and not with a third', () => {
    const [current, previous] = [minted(), minted()];
    const headers = headersFor(current, previous);
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(new Webhook(current).verify(body, headers)).toBeDefined();
    expect(new Webhook(previous).verify(body, headers)).toBeDefined();
    expect(() => new Webhook(minted()).verify(body, headers)).toThrow(/No matching signature/);
  });

  it('sign with an older base64url secret as the partner converts it to standard base64', () => {
    const old = mintedBefore();
    // The library's decoder takes standard base64 only: why new secrets are minted in that shape.
    expect(() => new Webhook(old)).toThrow();
    const converted = `whsec_${old.slice('whsec_'.length).replace(/-/g, '+').replace(/_/g, '/')}=`;
    expect(new Webhook(converted).verify(body, headersFor(old))).toBeDefined();
  });

  it('match an independent computation: base64 of HMAC-SHA256 over "{id}.{timestamp}.{body}", keyed with the decoded bytes', () => {
    const key = randomBytes(32);
    const secret = `whsec_${key.toString('base64')}`;
    const expected = createHmac('sha256', key)
      .update(Buffer.concat([Buffer.from('evt_9.1700000000.', 'ascii'), body]))
      .digest('base64');
    expect(standardWebhookSignature(secret, 'evt_9', 1_700_000_000, body)).toBe(`v1,${expected}`);
    expect(standardWebhookKey(`whsec_${key.toString('base64url')}`)).toEqual(key);
  });

  it.each(['whsec_', 'whsec_not base64!', 'whsec_abc$'])('refuses a secret that is not whsec_ and base64: %p', (s) => {
    expect(() => standardWebhookKey(s)).toThrow(RangeError);
  });
});
