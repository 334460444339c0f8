import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import type { Capability, Report } from '../model';
import { canonicalJson } from './canonical-json';

/**
 * A certificate: the run in a few lines, signed. A platform that connects a provider enables a
 * capability on a certificate that names it, signed by a key the platform trusts; it needs neither
 * the report's evidence (hundreds of kilobytes) nor the kit. `reportSha256` ties it to the signed
 * report it summarises, which stays with the provider for anyone who asks.
 */
export interface Certificate {
  kind: 'sdp-conformance-certificate';
  kit: Report['kit'];
  contract: Report['contract'];
  provider: Report['provider'];
  /** The capabilities the run certified, `core` first when the core passed. */
  certified: Capability[];
  finishedAt: string;
  /** SHA-256 (hex) of the canonical JSON of the report, signature included. */
  reportSha256: string;
  signature?: { algorithm: 'Ed25519'; publicKey: string; value: string };
}

const unsignedBytes = (certificate: Certificate): Buffer => {
  const { signature: _signature, ...unsigned } = certificate;
  return Buffer.from(canonicalJson(unsigned), 'utf8');
};

const spkiBase64 = (key: KeyObject): string =>
  (key.type === 'public' ? key : createPublicKey(key)).export({ type: 'spki', format: 'der' }).toString('base64');

/** The certificate of a (signed) report: the capabilities it certified, with the core. */
export function certificateOf(report: Report): Certificate {
  const certified = report.capabilities.filter((c) => c.certified).map((c) => c.capability);
  const coreFailed = report.tests.some((t) => t.capability === 'core' && t.status === 'fail');
  return {
    kind: 'sdp-conformance-certificate',
    kit: report.kit,
    contract: report.contract,
    provider: report.provider,
    certified: coreFailed ? [] : (['core', ...certified.filter((c) => c !== 'core')] as Capability[]),
    finishedAt: report.finishedAt,
    reportSha256: createHash('sha256').update(canonicalJson(report)).digest('hex'),
  };
}

/** Signs a certificate with an Ed25519 private key (PKCS#8 PEM, or a key object). */
export function signCertificate(certificate: Certificate, privateKey: string | Buffer | KeyObject): Certificate {
  const key = typeof privateKey === 'string' || Buffer.isBuffer(privateKey) ? createPrivateKey(privateKey) : privateKey;
  if (key.asymmetricKeyType !== 'ed25519') throw new Error('the signing key must be an Ed25519 private key');
  const value = sign(null, unsignedBytes(certificate), key).toString('base64');
  return { ...certificate, signature: { algorithm: 'Ed25519', publicKey: spkiBase64(key), value } };
}

/**
 * Whether the certificate is signed, unedited, by one of the trusted public keys (PEM). Without
 * a trusted key nothing is trusted: a certificate anyone can sign proves nothing.
 */
export function verifyCertificate(
  certificate: Certificate,
  trustedPublicKeysPem: ReadonlyArray<string | Buffer>,
): { valid: boolean; reason: string } {
  const signature = certificate.signature;
  if (!signature) return { valid: false, reason: 'the certificate is not signed' };
  if (signature.algorithm !== 'Ed25519') return { valid: false, reason: 'unsupported signature algorithm' };
  try {
    const key = createPublicKey({ key: Buffer.from(signature.publicKey, 'base64'), format: 'der', type: 'spki' });
    const signer = spkiBase64(key);
    if (!trustedPublicKeysPem.some((pem) => spkiBase64(createPublicKey(pem)) === signer))
      return { valid: false, reason: 'the certificate is not signed by a trusted key' };
    if (!verify(null, unsignedBytes(certificate), key, Buffer.from(signature.value, 'base64')))
      return { valid: false, reason: 'the signature does not match: the certificate was edited after signing' };
    return { valid: true, reason: 'signature valid, signed by a trusted key' };
  } catch (error) {
    return { valid: false, reason: `the signature cannot be checked: ${(error as Error).message}` };
  }
}
