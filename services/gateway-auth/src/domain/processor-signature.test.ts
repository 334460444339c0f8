import {
  PROCESSOR_SIGNATURE_TOLERANCE_SECONDS,
  newProcessorSecret,
  processorSignature,
  signatureMatches,
  timestampAcceptable,
} from './processor-signature';

const body = '{"eventId":"evt_1","type":"payment.succeeded"}';

describe('processor notification signatures', () => {
  const secret = newProcessorSecret();
  const ts = '1796000000';

  it('signs {timestamp}.{body} with HMAC-SHA256, lowercase hex', () => {
    // Computed independently: printf '1796000000.{}' | openssl dgst -sha256 -hmac 'k'
    expect(processorSignature('k', ts, '{}')).toBe('ba79ef46387cacaead6a19f7a5ec6f4fdf744c61a70f846c3076794ee4906b6e');
    expect(processorSignature(secret, ts, body)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('accepts the signature of the exact body under the current or the previous secret', () => {
    const previous = newProcessorSecret();
    expect(signatureMatches([secret], ts, processorSignature(secret, ts, body), body)).toBe(true);
    expect(signatureMatches([secret, previous], ts, processorSignature(previous, ts, body), body)).toBe(true);
  });

  it('refuses another body, another timestamp, another secret, and malformed signatures', () => {
    const signature = processorSignature(secret, ts, body);
    expect(signatureMatches([secret], ts, signature, `${body} `)).toBe(false);
    expect(signatureMatches([secret], '1796000001', signature, body)).toBe(false);
    expect(signatureMatches([newProcessorSecret()], ts, signature, body)).toBe(false);
    expect(signatureMatches([secret], ts, signature.toUpperCase(), body)).toBe(false);
    expect(signatureMatches([secret], ts, `v1=${signature}`, body)).toBe(false);
    expect(signatureMatches([secret], ts, undefined, body)).toBe(false);
    expect(signatureMatches([], ts, signature, body)).toBe(false);
  });

  it(`accepts a timestamp within ${PROCESSOR_SIGNATURE_TOLERANCE_SECONDS} s of the clock, either way`, () => {
    const now = 1_796_000_000_000;
    expect(timestampAcceptable('1796000000', now)).toBe(true);
    expect(timestampAcceptable(String(1_796_000_000 - PROCESSOR_SIGNATURE_TOLERANCE_SECONDS), now)).toBe(true);
    expect(timestampAcceptable(String(1_796_000_000 + PROCESSOR_SIGNATURE_TOLERANCE_SECONDS), now)).toBe(true);
    expect(timestampAcceptable(String(1_796_000_000 - PROCESSOR_SIGNATURE_TOLERANCE_SECONDS - 1), now)).toBe(false);
    expect(timestampAcceptable('1796000000.5', now)).toBe(false);
    expect(timestampAcceptable('', now)).toBe(false);
    expect(timestampAcceptable(undefined, now)).toBe(false);
  });
});
