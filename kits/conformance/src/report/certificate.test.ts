import { generateKeyPairSync } from 'node:crypto';
import type { Report } from '../model';
import { certificateOf, signCertificate, verifyCertificate } from './certificate';

const report = (coreStatus: 'pass' | 'fail' = 'pass'): Report => ({
  kit: { name: 'sdp-conformance', version: '1.0.0' },
  contract: { version: '1.1.0', revision: '2026-09-19' },
  provider: { baseUrl: 'https://p.example/v1', name: 'p' },
  declaration: {
    provider: 'p',
    contract: { version: '1.1.0', revision: '2026-09-19' },
    capabilities: { supportsPolling: true, supportsTracking: true },
    area: { pickup: { lat: 1, lng: 2, address: 'a' }, dropoff: { lat: 1, lng: 2, address: 'b' } },
    sandbox: { lifecycleTimeoutSeconds: 1, holdPreparationMinutes: 1 },
  },
  startedAt: '2026-11-30T10:00:00.000Z',
  finishedAt: '2026-11-30T10:01:00.000Z',
  summary: { passed: 2, failed: 0, skipped: 0, total: 2 },
  capabilities: [
    { capability: 'core', declared: true, passed: 1, failed: 0, skipped: 0, certified: coreStatus === 'pass' },
    { capability: 'supportsPolling', declared: true, passed: 1, failed: 0, skipped: 0, certified: true },
    { capability: 'supportsTracking', declared: true, passed: 0, failed: 1, skipped: 0, certified: false },
  ],
  tests: [
    {
      id: 'SDP-X-01',
      capability: 'core',
      group: 'x',
      title: 'x',
      spec: { section: 'Errors' },
      status: coreStatus,
      durationMs: 3,
      evidence: { exchanges: [], callbacks: [], notes: [] },
    },
  ],
});

const pair = () => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { privateKey, publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() };
};

describe('conformance certificate', () => {
  it('names the certified capabilities, core first, and the digest of the report', () => {
    const certificate = certificateOf(report());
    expect(certificate.certified).toEqual(['core', 'supportsPolling']);
    expect(certificate.reportSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(certificateOf(report('fail')).certified).toEqual([]);
  });

  it('verifies only when signed, unedited, by a trusted key', () => {
    const signer = pair();
    const stranger = pair();
    const signed = signCertificate(certificateOf(report()), signer.privateKey);
    expect(verifyCertificate(signed, [stranger.publicPem, signer.publicPem]).valid).toBe(true);
    expect(verifyCertificate(signed, [stranger.publicPem])).toEqual({
      valid: false,
      reason: 'the certificate is not signed by a trusted key',
    });
    expect(verifyCertificate(signed, []).valid).toBe(false);
    const edited = { ...signed, certified: [...signed.certified, 'supportsTracking' as const] };
    expect(verifyCertificate(edited, [signer.publicPem]).reason).toMatch(/edited after signing/);
    const { signature: _s, ...unsigned } = signed;
    expect(verifyCertificate(unsigned, [signer.publicPem]).reason).toBe('the certificate is not signed');
  });
});
