import { generateKeyPairSync } from 'node:crypto';
import type { Report } from '../model';
import { canonicalJson } from './canonical-json';
import { signReport, verifyReport } from './sign';

const report = (): Report => ({
  kit: { name: 'sdp-conformance', version: '1.0.0' },
  contract: { version: '1.1.0', revision: '2026-09-19' },
  provider: { baseUrl: 'https://p/v1', name: 'p' },
  declaration: {
    provider: 'p',
    contract: { version: '1.1.0', revision: '2026-09-19' },
    capabilities: {},
    area: { pickup: { lat: 1, lng: 2, address: 'a' }, dropoff: { lat: 1, lng: 2, address: 'b' } },
    sandbox: { lifecycleTimeoutSeconds: 1, holdPreparationMinutes: 1 },
  },
  startedAt: 't0',
  finishedAt: 't1',
  summary: { passed: 1, failed: 0, skipped: 0, total: 1 },
  capabilities: [{ capability: 'core', declared: true, passed: 1, failed: 0, skipped: 0, certified: true }],
  tests: [
    {
      id: 'SDP-X-01',
      capability: 'core',
      group: 'x',
      title: 'x',
      spec: { section: 'Errors' },
      status: 'pass',
      reason: undefined,
      durationMs: 3,
      evidence: { exchanges: [], callbacks: [], notes: ['é ✓'] },
    },
  ],
});

describe('canonical JSON', () => {
  it('sorts keys recursively, drops undefined members, keeps array order, adds no whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: undefined }], c: 'x' }, u: undefined })).toBe(
      '{"a":{"c":"x","d":[3,{"z":1}]},"b":1}',
    );
    expect(canonicalJson([undefined, null, 'é'])).toBe('[null,null,"é"]');
  });
});

describe('signing', () => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const publicPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();

  it('signs over the canonical form: the report read back from JSON verifies, with and without a trusted key', () => {
    const signed = signReport(report(), pem);
    expect(signed.signature).toMatchObject({
      algorithm: 'Ed25519',
      publicKey: publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
    });
    const readBack = JSON.parse(JSON.stringify(signed, null, 2)) as Report;
    expect(verifyReport(readBack).valid).toBe(true);
    expect(verifyReport(readBack, publicPem)).toMatchObject({ valid: true });
  });

  it('fails an edited report, an unsigned one, and one signed by another key than the trusted one', () => {
    const signed = signReport(report(), pem);
    const edited = JSON.parse(JSON.stringify(signed)) as Report;
    edited.tests[0]!.status = 'fail';
    expect(verifyReport(edited)).toMatchObject({ valid: false, reason: expect.stringContaining('edited') });
    expect(verifyReport(report()).valid).toBe(false);
    const other = generateKeyPairSync('ed25519');
    const forged = signReport(report(), other.privateKey);
    expect(verifyReport(forged).valid).toBe(true);
    expect(verifyReport(forged, publicPem)).toMatchObject({
      valid: false,
      reason: expect.stringContaining('another key'),
    });
  });

  it('refuses a key that is not Ed25519, and a garbled signature', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 });
    expect(() => signReport(report(), rsa.privateKey)).toThrow(/Ed25519/);
    const signed = signReport(report(), pem);
    expect(verifyReport({ ...signed, signature: { ...signed.signature!, publicKey: 'AAAA' } }).valid).toBe(false);
  });
});
