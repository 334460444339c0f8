import type { Exchange, ReceivedCallback } from './model';
import { createRedactor, redactCallback, redactExchange, REDACTED } from './redact';

const KEY = 'sk_test_0123456789abcdef';
const SECRET = 'whsec_abcdefabcdef';
const TOKEN = 'Tok3n_abcdefghijklmnopqrstuvwxyz';

describe('redaction', () => {
  const redactor = createRedactor([KEY, SECRET, TOKEN]);

  it('replaces every secret in text, whatever form it takes', () => {
    const text = [
      KEY,
      encodeURIComponent(SECRET),
      Buffer.from(`${KEY}:`).toString('base64'),
      `https://h/callbacks/x/${TOKEN}`,
    ].join(' | ');
    const redacted = redactor.text(text);
    for (const secret of [KEY, SECRET, TOKEN, Buffer.from(`${KEY}:`).toString('base64')])
      expect(redacted).not.toContain(secret);
    expect(redacted).toBe(`${REDACTED} | ${REDACTED} | ${REDACTED} | https://h/callbacks/x/${REDACTED}`);
  });

  it('blanks credential and signature headers whatever their value', () => {
    expect(
      redactor.headers({ Authorization: 'Token other', 'X-Platform-Signature': 'ab12', Accept: 'application/json' }),
    ).toEqual({
      Authorization: REDACTED,
      'X-Platform-Signature': REDACTED,
      Accept: 'application/json',
    });
  });

  it('redacts an exchange (URL, headers, bodies, error) and drops its parsed JSON', () => {
    const exchange: Exchange = {
      method: 'POST',
      url: `https://p/v1/deliveries?k=${KEY}`,
      requestHeaders: { Authorization: `Bearer ${KEY}` },
      requestBody: JSON.stringify({ webhook: { url: `https://r/callbacks/a/${TOKEN}` } }),
      status: 500,
      responseHeaders: { 'x-echo': SECRET },
      responseBody: `{"message":"bad key ${KEY}"}`,
      json: { message: `bad key ${KEY}` },
      responseBytes: 10,
      startedAt: '2026-01-01T00:00:00Z',
      durationMs: 1,
      error: `timeout for ${KEY}`,
    };
    const redacted = redactExchange(exchange, redactor);
    expect(JSON.stringify(redacted)).not.toMatch(new RegExp(`${KEY}|${SECRET}|${TOKEN}`));
    expect(redacted.json).toBeUndefined();
    expect(redacted.requestHeaders.Authorization).toBe(REDACTED);
  });

  it('redacts a callback and cuts long bodies to 64 KiB', () => {
    const callback: ReceivedCallback = {
      label: 'd',
      path: `/callbacks/d/${TOKEN}`,
      headers: { 'x-platform-signature': 'abc' },
      body: Buffer.from(`${SECRET}${'x'.repeat(70_000)}`),
      receivedAt: 1,
      answeredStatus: 204,
    };
    const redacted = redactCallback(callback, redactor);
    expect(redacted.path).toBe(`/callbacks/d/${REDACTED}`);
    expect(redacted.headers['x-platform-signature']).toBe(REDACTED);
    expect(redacted.body.startsWith(REDACTED)).toBe(true);
    expect(redacted.body.length).toBeLessThan(66 * 1024);
    expect(redacted.body).toMatch(/more characters\]$/);
  });

  it('ignores secrets too short to be real (they would blank ordinary text)', () => {
    expect(createRedactor(['', 'ab']).text('abc')).toBe('abc');
  });
});
