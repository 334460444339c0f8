import { createPublicKey } from 'node:crypto';
import { verifyCertificate, type Certificate } from 'sdp-conformance';
import type { ConformanceCertificate } from '@marketplace/contracts';
import type { CertificateCheck } from '../../usecases/ports';

/**
 * Conformance certificates (sdp-conformance's certificate.json) checked against the keys the
 * deployment trusts (CONFORMANCE_TRUSTED_KEYS, base64 SPKI DER, comma-separated; a key that is
 * not one stops the start): with none, no certificate is trusted, and only an administrator
 * enables a capability.
 */
export function certificateCheck(setting: string | undefined): CertificateCheck {
  const trustedKeys = (setting ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  const pems = trustedKeys.map((key) =>
    createPublicKey({ key: Buffer.from(key, 'base64'), format: 'der', type: 'spki' })
      .export({ type: 'spki', format: 'pem' })
      .toString(),
  );
  return {
    verify: (certificate: ConformanceCertificate) =>
      pems.length === 0
        ? { valid: false, reason: 'this marketplace trusts no certificate signer (CONFORMANCE_TRUSTED_KEYS)' }
        : verifyCertificate(certificate as unknown as Certificate, pems),
  };
}
