import type { Exchange, ReceivedCallback } from '../../model';
import { CREATE_LIMITS } from '../../spec';
import { credentialEchoes, wrongKeyLike } from './requests-auth';
import { eachLimited, uniqueOfLength } from './requests-calls';
import { atLimitCases, badCallbackCases, brokenLimitCases } from './requests-cases';
import { callbackTokens, leaksIn } from './requests-leaks';
import { hugeCreateBody, isRetryAfter, isTimeout } from './requests-limits';
import { compatibleText, sameResultProblem } from './requests-replay';

const exchange = (overrides: Partial<Exchange>): Exchange => ({
  method: 'POST',
  url: 'https://provider.example/v1/deliveries',
  requestHeaders: {},
  requestBody: null,
  status: 401,
  responseHeaders: {},
  responseBody: null,
  responseBytes: 0,
  startedAt: new Date(0).toISOString(),
  durationMs: 1,
  ...overrides,
});

describe('a wrong key of the real key’s shape', () => {
  it('keeps length, alphabet and a prefix, and changes the secret part', () => {
    const key = 'sdp_live_AbC123xyz789QQ';
    const wrong = wrongKeyLike(key);
    expect(wrong).toHaveLength(key.length);
    expect(wrong.startsWith('sdp_live_')).toBe(true);
    expect(wrong.slice(9)).toMatch(/^[A-Za-z0-9]+$/);
    for (let i = 9; i < key.length; i++) expect(wrong[i]).not.toBe(key[i]);
  });
  it('changes every character of a key without parts', () => {
    expect(wrongKeyLike('abc9Z')).toBe('bcd0A');
  });
});

describe('credential echoes', () => {
  it('finds the credentials in the body or the headers', () => {
    expect(credentialEchoes(exchange({ responseBody: '{"message":"bad key abcd1234"}' }), ['abcd1234'])).toEqual([
      'body',
    ]);
    expect(
      credentialEchoes(exchange({ responseHeaders: { 'www-authenticate': 'Bearer abcd1234' } }), ['abcd1234']),
    ).toEqual(['headers']);
    expect(
      credentialEchoes(exchange({ responseBody: '{"message":"Missing or invalid credentials."}' }), ['abcd1234']),
    ).toEqual([]);
  });
});

describe('leaks in error bodies', () => {
  it.each([
    ['a stack trace', 'Error at handler (/app/src/create.js:10:5)'],
    ['a stack trace', '{"message":"boom\\n    at Object.run"}'],
    ['SQL', 'SELECT id FROM deliveries WHERE x'],
    ['SQL', 'INSERT INTO deliveries VALUES'],
    ['an exception type', 'TypeError: cannot read'],
    ['an exception type', 'NullPointerException'],
    ['an exception type', 'Error: connect ECONNREFUSED'],
  ])('finds %s in %s', (kind, body) => {
    expect(leaksIn(body, [])).toContain(kind);
  });
  it('finds the secrets by name', () => {
    expect(leaksIn('url https://cb/tok_abcdefgh12345678', [['a callback token', 'tok_abcdefgh12345678']])).toEqual([
      'a callback token',
    ]);
  });
  it.each([
    '{"code":"request.invalid","message":"The request is invalid.","retryable":false,"fieldErrors":{"currency":["must match pattern \\"^[A-Z]{3}$\\""]}}',
    '{"message":"Please select a currency from the list"}',
    '{"message":"Pickup at noon 12:30:45 is too late"}',
    '{"code":"validation_error","message":"amount is too big"}',
  ])('finds nothing in a plain error: %s', (body) => {
    expect(leaksIn(body, [['the API key', 'sdp_live_secret']])).toEqual([]);
  });
});

describe('callback tokens', () => {
  it('takes the last path segment of the receiver’s URLs, not of other hosts', () => {
    const sent = (url: string): Exchange => exchange({ requestBody: JSON.stringify({ webhook: { url } }) });
    const received = { path: '/callbacks/box/arrivedTokenAAAAAAAAAAA' } as ReceivedCallback;
    const tokens = callbackTokens(
      [
        sent('http://127.0.0.1:9/callbacks/box/sentTokenBBBBBBBBBBBBB'),
        sent(`https://example.com/cb/${'a'.repeat(40)}`),
        exchange({ requestBody: '{"platformReference":' }),
      ],
      [received],
      'http://127.0.0.1:9',
    );
    expect(tokens.sort()).toEqual(['arrivedTokenAAAAAAAAAAA', 'sentTokenBBBBBBBBBBBBB']);
  });
});

describe('limits', () => {
  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(isRetryAfter('5')).toBe(true);
    expect(isRetryAfter('Wed, 21 Oct 2026 07:28:00 GMT')).toBe(true);
    expect(isRetryAfter(undefined)).toBe(false);
    expect(isRetryAfter('5s')).toBe(false);
    expect(isRetryAfter('2026-10-21T07:28:00Z')).toBe(false);
  });
  it('tells a timeout from a reset', () => {
    expect(isTimeout(exchange({ status: null, error: 'no answer within 15 s (gave up after 20 s)' }))).toBe(true);
    expect(isTimeout(exchange({ status: null, error: 'socket hang up (ECONNRESET)' }))).toBe(false);
  });
  it('makes a valid create body of the size wanted', () => {
    const body = hugeCreateBody({ platformReference: 'r', notes: 'n', amount: 1 }, 6 * 1024 * 1024);
    expect(body.length).toBe(6 * 1024 * 1024);
    expect(JSON.parse(body.toString('utf8'))).toMatchObject({ platformReference: 'r', amount: 1 });
  });
});

describe('replays', () => {
  it('writes the same request as other JSON text', () => {
    const request = { platformReference: 'r', amount: 23.5, webhook: { url: 'u' } };
    const text = compatibleText(request);
    expect(text).toBe('{"webhook":{"url":"u"},"amount":23.50,"platformReference":"r"}');
    expect(JSON.parse(text)).toEqual(request);
    expect(() => compatibleText({ amount: 10 })).toThrow();
  });
  it('names the first identifier that changed', () => {
    const original = {
      accepted: true,
      providerDeliveryId: 'a',
      providerTrackingId: undefined,
      rejectionReason: undefined,
    };
    expect(sameResultProblem(original, { ...original }, 'replay')).toBeUndefined();
    expect(sameResultProblem(original, { ...original, providerDeliveryId: 'b' }, 'replay')).toBe(
      'replay: expected the original result (providerDeliveryId "a"), got providerDeliveryId "b"',
    );
  });
});

describe('cases', () => {
  const length = (overrides: Record<string, unknown>, field: string): number => String(overrides[field]).length;
  it('breaks every string limit by one character', () => {
    const cases = brokenLimitCases();
    for (const field of [
      'pickupAddress',
      'customerName',
      'customerPhone',
      'dropoffAddress',
      'paymentMethod',
      'notes',
    ] as const) {
      const found = cases.find(
        (c) =>
          Object.keys(c.overrides).length === 1 &&
          c.overrides[field] !== undefined &&
          typeof c.overrides[field] === 'string',
      );
      expect(found && length(found.overrides, field)).toBe(CREATE_LIMITS[field] + 1);
    }
    expect(cases.find((c) => c.what.startsWith('platformReference'))?.overrides.platformReference).toHaveLength(201);
    expect(cases.find((c) => c.what.startsWith('idempotencyKey'))?.overrides.idempotencyKey).toHaveLength(201);
  });
  it('puts strings exactly at their limit', () => {
    for (const c of atLimitCases()) {
      for (const [field, value] of Object.entries(c.overrides)) {
        if (typeof value === 'string' && field in CREATE_LIMITS)
          expect(value).toHaveLength(CREATE_LIMITS[field as keyof typeof CREATE_LIMITS]);
      }
    }
  });
  it('makes a callback URL of 2,049 characters', () => {
    const urls = badCallbackCases().map((c) => (c.overrides.webhook as { url: string }).url);
    expect(urls).toContain('http://example.com/cb');
    expect(urls.some((url) => url.length === CREATE_LIMITS.callbackUrl + 1 && url.startsWith('https://'))).toBe(true);
  });
});

describe('helpers', () => {
  it('uniqueOfLength is unique and exact', () => {
    const a = uniqueOfLength('ref', 200);
    expect(a).toHaveLength(200);
    expect(uniqueOfLength('ref', 200)).not.toBe(a);
  });
  it('eachLimited keeps order and the limit', async () => {
    let running = 0;
    let most = 0;
    const out = await eachLimited([5, 1, 3, 2], 2, async (n) => {
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, n));
      running--;
      return n * 10;
    });
    expect(out).toEqual([50, 10, 30, 20]);
    expect(most).toBe(2);
  });
});
