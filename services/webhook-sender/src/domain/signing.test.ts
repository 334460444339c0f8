import { createHmac } from 'node:crypto';
import {
  marketplaceSignature,
  marketplaceSigner,
  platformSignature,
  platformSigner,
  standardWebhookSignature,
} from './signing';

const secret = 'whsec_test';

/** The HMAC input built by hand: timestamp text, a dot, then the body bytes. */
function expected(key: string, timestampText: string, body: Buffer): string {
  const input = Buffer.concat([Buffer.from(timestampText, 'ascii'), Buffer.from([0x2e]), body]);
  return createHmac('sha256', key).update(input).digest('hex');
}

describe('marketplaceSignature', () => {
  it('matches a known vector (computed once with openssl dgst -sha256 -hmac)', () => {
    expect(marketplaceSignature(secret, 1_700_000_000, Buffer.from('{"id":"evt_1"}'))).toBe(
      'c89214b5b5da833daed6f0b8c5bb6bd58cea9022bd80ccc78230f3942d632925',
    );
  });

  it('matches an independent computation over the concatenated bytes, as lowercase hex', () => {
    const body = Buffer.from('{"type":"order.created","data":{"total":1250}}');
    const signature = marketplaceSignature('whsec_abcdefghijklmnopqrstuvwxyz012345', 1_712_345_678, body);
    expect(signature).toBe(expected('whsec_abcdefghijklmnopqrstuvwxyz012345', '1712345678', body));
    expect(signature).toMatch(/^[0-9a-f]{64}$/);
  });

  it('signs non-ASCII and binary bodies as bytes, never re-encoded', () => {
    // 0xff and 0x00 are not valid UTF-8 text; "é" as UTF-8 is c3 a9.
    const body = Buffer.from([0xff, 0x00, 0xc3, 0xa9]);
    const signature = marketplaceSignature(secret, 1_700_000_000, body);
    expect(signature).toBe('902b541e2da2ed1091774fd3acb35addb58425e5f7a517e860259eccaea988df'); // openssl, as above
    expect(signature).toBe(expected(secret, '1700000000', body));
    // A round trip through a string changes the bytes (0xff becomes U+FFFD, ef bf bd), and so the signature.
    expect(signature).not.toBe(expected(secret, '1700000000', Buffer.from(body.toString('utf8'), 'utf8')));
    expect(signature).not.toBe(expected(secret, '1700000000', Buffer.from(body.toString('latin1'), 'utf8')));
  });

  it('depends on every input', () => {
    const body = Buffer.from('{}');
    const base = marketplaceSignature(secret, 1_700_000_000, body);
    expect(marketplaceSignature('whsec_other', 1_700_000_000, body)).not.toBe(base);
    expect(marketplaceSignature(secret, 1_700_000_001, body)).not.toBe(base);
    expect(marketplaceSignature(secret, 1_700_000_000, Buffer.from('{} '))).not.toBe(base);
  });

  it('signs an empty body as the timestamp and the dot alone', () => {
    expect(marketplaceSignature(secret, 0, Buffer.alloc(0))).toBe(expected(secret, '0', Buffer.alloc(0)));
  });

  it.each([1.5, -1, Number.NaN, Number.POSITIVE_INFINITY, 1e21])(
    'rejects a timestamp that is not a plain decimal integer: %p',
    (t) => {
      expect(() => marketplaceSignature(secret, t, Buffer.from('{}'))).toThrow(RangeError);
    },
  );
});

describe('marketplaceSigner', () => {
  const body = Buffer.from('{"id":"evt_1"}');

  it("sends exactly the spec's event id, timestamp and signature, and the Standard Webhooks three", () => {
    expect(marketplaceSigner.headers(secret, 'evt_1', 1_700_000_000, body)).toEqual({
      'X-Marketplace-Event-Id': 'evt_1',
      'X-Marketplace-Timestamp': '1700000000',
      'X-Marketplace-Signature': 'c89214b5b5da833daed6f0b8c5bb6bd58cea9022bd80ccc78230f3942d632925',
      'webhook-id': 'evt_1',
      'webhook-timestamp': '1700000000',
      'webhook-signature': standardWebhookSignature(secret, 'evt_1', 1_700_000_000, body),
    });
  });

  it('keeps X-Marketplace-Signature on the current secret alone during an overlap', () => {
    const alone = marketplaceSigner.headers(secret, 'evt_1', 1_700_000_000, body);
    const overlap = marketplaceSigner.headers(secret, 'evt_1', 1_700_000_000, body, 'whsec_previous');
    expect(overlap['X-Marketplace-Signature']).toBe(alone['X-Marketplace-Signature']);
    expect(overlap['webhook-signature']).toBe(
      `${alone['webhook-signature']} ${standardWebhookSignature('whsec_previous', 'evt_1', 1_700_000_000, body)}`,
    );
  });

  it('writes the timestamp as a decimal integer string, the same text that is signed', () => {
    const headers = marketplaceSigner.headers(secret, 'evt_1', 9_999_999_999, body);
    const timestamp = headers['X-Marketplace-Timestamp'] ?? '';
    expect(timestamp).toBe('9999999999');
    expect(timestamp).toMatch(/^[0-9]+$/);
    expect(headers['X-Marketplace-Signature']).toBe(expected(secret, timestamp, body));
  });

  it('keeps the event id across attempts while the timestamp and signature change', () => {
    const first = marketplaceSigner.headers(secret, 'evt_1', 1_700_000_000, body);
    const retry = marketplaceSigner.headers(secret, 'evt_1', 1_700_000_120, body);
    expect(retry['X-Marketplace-Event-Id']).toBe(first['X-Marketplace-Event-Id']);
    expect(retry['X-Marketplace-Timestamp']).not.toBe(first['X-Marketplace-Timestamp']);
    expect(retry['X-Marketplace-Signature']).not.toBe(first['X-Marketplace-Signature']);
  });

  it('rejects a fractional timestamp rather than sending text the partner cannot verify', () => {
    expect(() => marketplaceSigner.headers(secret, 'evt_1', 1_700_000_000.5, body)).toThrow(RangeError);
  });
});

describe('platformSignature (delivery-provider contract callbacks)', () => {
  const key = 'whsec_platform';
  const body = Buffer.from(
    '{"eventType":"delivery.accepted","platformReference":"ord_1","status":"provider_accepted"}',
  );
  /** The HMAC computed independently: node:crypto over the body bytes alone. */
  const independent = (k: string, b: Buffer): string =>
    createHmac('sha256', Buffer.from(k, 'utf8')).update(b).digest('hex');

  it('matches a known vector: HMAC-SHA256 over the body bytes alone, lowercase hex', () => {
    const signature = platformSignature(key, body);
    expect(signature).toBe(independent(key, body));
    // The same value from openssl: printf '%s' '<body>' | openssl dgst -sha256 -hmac 'whsec_platform'
    expect(signature).toBe('428f77a6ac2d8b2f5cf121e7a9dfd613916bb2df1f4527f82e1d469ac00f5447');
    expect(signature).toMatch(/^[0-9a-f]{64}$/);
  });

  it('changes when any single byte of the body changes', () => {
    const base = platformSignature(key, body);
    for (let i = 0; i < body.length; i++) {
      const changed = Buffer.from(body);
      changed[i] = changed[i]! ^ 0x01;
      expect(platformSignature(key, changed)).not.toBe(base);
    }
    expect(platformSignature(key, Buffer.concat([body, Buffer.from(' ')]))).not.toBe(base);
    expect(platformSignature(key, body.subarray(0, body.length - 1))).not.toBe(base);
  });

  it('depends on the secret', () => {
    expect(platformSignature('whsec_other', body)).not.toBe(platformSignature(key, body));
  });

  it('signs the exact UTF-8 bytes, never a re-encoding', () => {
    const utf8 = Buffer.from('{"driverName":"José"}', 'utf8'); // é as c3 a9
    expect(platformSignature(key, utf8)).toBe(independent(key, utf8));
    expect(platformSignature(key, utf8)).not.toBe(independent(key, Buffer.from('{"driverName":"José"}', 'latin1')));
  });

  it('is not the partner scheme: no timestamp is signed', () => {
    expect(platformSignature(key, body)).not.toBe(marketplaceSignature(key, 0, body));
  });

  it('refuses an empty secret', () => {
    expect(() => platformSignature('', body)).toThrow(RangeError);
  });
});

describe('platformSigner', () => {
  const key = 'whsec_platform';
  const body = Buffer.from('{"eventType":"delivery.picked_up","platformReference":"ord_2","status":"picked_up"}');

  it('sends only X-Platform-Signature, the bare hex digest without a sha256= prefix', () => {
    const headers = platformSigner.headers(key, 'dlv_1', 1_700_000_000, body);
    expect(headers).toEqual({ 'X-Platform-Signature': createHmac('sha256', key).update(body).digest('hex') });
    expect(headers['X-Platform-Signature']).toMatch(/^[0-9a-f]{64}$/);
  });

  it('ignores the event id and the attempt time: every attempt of one body carries the same signature', () => {
    const first = platformSigner.headers(key, 'dlv_1', 1_700_000_000, body);
    expect(platformSigner.headers(key, 'dlv_other', 1_700_000_120, body)).toEqual(first);
    // The attempt time is not validated either, since it is not used.
    expect(platformSigner.headers(key, 'dlv_1', 1.5, body)).toEqual(first);
  });
});
