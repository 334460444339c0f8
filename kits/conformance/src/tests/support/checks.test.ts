import { createHmac } from 'node:crypto';
import type { Exchange } from '../../model';
import {
  describe as describeExchange,
  envelopeProblem,
  headerOf,
  isEnvelope,
  isJsonMediaType,
  redact,
  signatureProblem,
  verifySignature,
} from './checks';

const exchange = (overrides: Partial<Exchange>): Exchange => ({
  method: 'POST',
  url: 'https://provider.example/v1/deliveries',
  requestHeaders: { authorization: 'Bearer secret-key' },
  requestBody: null,
  status: 200,
  responseHeaders: {},
  responseBody: null,
  responseBytes: 0,
  startedAt: new Date(0).toISOString(),
  durationMs: 1,
  ...overrides,
});

describe('the error envelope', () => {
  it('accepts code, message, retryable and optional fieldErrors', () => {
    expect(isEnvelope({ code: 'x', message: 'y', retryable: false })).toBe(true);
    expect(isEnvelope({ code: 'x', message: 'y', retryable: true, fieldErrors: { amount: ['too big'] } })).toBe(true);
  });
  it('names what is wrong', () => {
    expect(envelopeProblem(undefined)).toMatch(/not a JSON object/);
    expect(envelopeProblem([])).toMatch(/not a JSON object/);
    expect(envelopeProblem({ message: 'y', retryable: false })).toMatch(/code/);
    expect(envelopeProblem({ code: 'x', retryable: false })).toMatch(/message/);
    expect(envelopeProblem({ code: 'x', message: 'y', retryable: 'no' })).toMatch(/retryable/);
    expect(envelopeProblem({ code: 'x', message: 'y', retryable: false, fieldErrors: null })).toMatch(/fieldErrors/);
    expect(envelopeProblem({ code: 'x', message: 'y', retryable: false, fieldErrors: { a: 'b' } })).toMatch(
      /fieldErrors.a/,
    );
    expect(envelopeProblem({ code: 'x', message: 'y', retryable: false, fieldErrors: { a: [1] } })).toMatch(
      /fieldErrors.a/,
    );
  });
});

describe('the JSON media type', () => {
  it.each([
    'application/json',
    'application/json; charset=utf-8',
    'Application/JSON;charset=UTF-8',
    'application/json; charset="utf-8"',
  ])('accepts %s', (type) => {
    expect(isJsonMediaType(type)).toBe(true);
  });
  it.each([
    undefined,
    '',
    'text/plain',
    'application/json; charset=iso-8859-1',
    'application/problem+json',
    'text/json',
  ])('refuses %s', (type) => {
    expect(isJsonMediaType(type)).toBe(false);
  });
});

describe('the webhook signature', () => {
  const secret = 'whsec-test';
  const body = Buffer.from('{"status":"delivered","note":"é"}', 'utf8');
  const good = createHmac('sha256', secret).update(body).digest('hex');

  it('verifies the lowercase hex HMAC-SHA256 of the exact bytes', () => {
    expect(verifySignature(body, good, secret)).toBe(true);
  });
  it('refuses a missing, prefixed, uppercase, short or wrong signature', () => {
    expect(signatureProblem(body, undefined, secret)).toMatch(/no X-Platform-Signature/);
    expect(signatureProblem(body, `sha256=${good}`, secret)).toMatch(/prefix/);
    expect(signatureProblem(body, good.toUpperCase(), secret)).toMatch(/lowercase hex/);
    expect(signatureProblem(body, good.slice(2), secret)).toMatch(/lowercase hex/);
    expect(signatureProblem(body, good, 'another-secret')).toMatch(/does not match/);
    expect(signatureProblem(Buffer.concat([body, Buffer.from(' ')]), good, secret)).toMatch(/does not match/);
  });
});

describe('messages', () => {
  it('describe names method, path and status, never headers or bodies', () => {
    const text = describeExchange(exchange({ status: 401, responseBody: 'secret-key' }));
    expect(text).toBe('POST /v1/deliveries → 401');
    expect(describeExchange(exchange({ status: null, error: 'timeout' }))).toBe(
      'POST /v1/deliveries → no answer (timeout)',
    );
  });
  it('redact removes every secret', () => {
    expect(redact('key abcd1234 and whsec and abcd1234', ['abcd1234', 'whsec'])).toBe(
      'key [redacted] and [redacted] and [redacted]',
    );
  });
  it('headerOf ignores the case of names', () => {
    expect(headerOf({ 'Content-Type': 'application/json' }, 'content-type')).toBe('application/json');
  });
});
