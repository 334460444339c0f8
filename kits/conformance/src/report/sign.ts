import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import type { Report } from '../model';
import { canonicalJson } from './canonical-json';

/** The bytes signed: the canonical JSON of the report without its signature. */
const signedBytes = (report: Report): Buffer => {
  const { signature: _signature, ...unsigned } = report;
  return Buffer.from(canonicalJson(unsigned), 'utf8');
};

const spkiBase64 = (key: KeyObject): string =>
  (key.type === 'public' ? key : createPublicKey(key)).export({ type: 'spki', format: 'der' }).toString('base64');

/** Signs a report with an Ed25519 private key (PKCS#8 PEM, or a key object): a platform can then tell it was not edited. */
export function signReport(report: Report, privateKey: string | Buffer | KeyObject): Report {
  const key = typeof privateKey === 'string' || Buffer.isBuffer(privateKey) ? createPrivateKey(privateKey) : privateKey;
  if (key.asymmetricKeyType !== 'ed25519')
    throw new Error(
      `the signing key must be an Ed25519 private key (got ${key.asymmetricKeyType ?? 'an unknown key type'})`,
    );
  const value = sign(null, signedBytes(report), key).toString('base64');
  return { ...report, signature: { algorithm: 'Ed25519', publicKey: spkiBase64(key), value } };
}

export interface Verification {
  valid: boolean;
  reason: string;
}

/**
 * Verifies a report's signature. With a trusted public key (PEM), the report must be signed by
 * that key; without one, only that the report was not edited since its own key signed it.
 */
export function verifyReport(report: Report, trustedPublicKeyPem?: string | Buffer): Verification {
  const signature = report.signature;
  if (!signature) return { valid: false, reason: 'the report is not signed' };
  if (signature.algorithm !== 'Ed25519')
    return { valid: false, reason: `unsupported signature algorithm ${String(signature.algorithm)}` };
  try {
    const key = createPublicKey({ key: Buffer.from(signature.publicKey, 'base64'), format: 'der', type: 'spki' });
    if (trustedPublicKeyPem !== undefined && spkiBase64(createPublicKey(trustedPublicKeyPem)) !== spkiBase64(key)) {
      return { valid: false, reason: 'the report is signed by another key than the trusted one' };
    }
    if (!verify(null, signedBytes(report), key, Buffer.from(signature.value, 'base64'))) {
      return { valid: false, reason: 'the signature does not match: the report was edited after signing' };
    }
    return {
      valid: true,
      reason:
        trustedPublicKeyPem === undefined
          ? 'signature valid (key not pinned: pass --public-key to trust a signer)'
          : 'signature valid, signed by the trusted key',
    };
  } catch (error) {
    return {
      valid: false,
      reason: `the signature cannot be checked: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}
