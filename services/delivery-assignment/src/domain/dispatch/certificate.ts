import {
  CONNECTION_CAPABILITIES,
  type ConnectionCapability,
  type ConformanceCertificate,
} from '@marketplace/contracts';
import { normalBaseUrl, type CapabilityGrant, type ProviderConnection } from './connection';

/** How old a certificate may be when it is submitted: a recertification is a new run. */
export const CERTIFICATE_MAX_AGE_DAYS = 365;

/**
 * What a conformance certificate (signature already checked against a trusted key) does to a
 * connection: it must be for this connection's base URL and for contract major 1, not from the
 * future nor older than a year. Then every capability it certifies is enabled by it, and any
 * capability an earlier certificate enabled but this one does not is disabled (a recertification
 * replaces the last one); what an administrator decided stays. Proof of delivery never is.
 */
export function applyCertificate(
  connection: ProviderConnection,
  certificate: ConformanceCertificate,
  now: Date,
): { next: ProviderConnection } | { refused: string } {
  if (normalBaseUrl(certificate.provider.baseUrl) !== connection.baseUrl)
    return { refused: `the certificate is for ${certificate.provider.baseUrl}, not for this connection's base URL` };
  if (!/^1\.\d+\.\d+$/.test(certificate.contract.version))
    return { refused: `the certificate is for contract ${certificate.contract.version}, not a 1.x version` };
  const finished = Date.parse(certificate.finishedAt);
  if (Number.isNaN(finished)) return { refused: 'the certificate has no valid finishedAt' };
  if (finished > now.getTime() + 5 * 60_000) return { refused: 'the certificate is dated in the future' };
  if (now.getTime() - finished > CERTIFICATE_MAX_AGE_DAYS * 86_400_000)
    return { refused: `the certificate is older than ${CERTIFICATE_MAX_AGE_DAYS} days` };
  const certified = new Set(certificate.certified);
  if (!certified.has('core')) return { refused: 'the certificate does not certify the core of the contract' };

  const reason = `${certificate.kit.name} ${certificate.kit.version}, run finished ${certificate.finishedAt}`;
  const capabilities: Partial<Record<ConnectionCapability, CapabilityGrant>> = {};
  for (const capability of CONNECTION_CAPABILITIES) {
    const held = connection.capabilities[capability];
    if (certified.has(capability)) capabilities[capability] = { enabled: true, by: 'certificate', reason, at: now };
    else if (held?.by === 'administrator') capabilities[capability] = held;
    else if (held?.enabled) capabilities[capability] = { enabled: false, by: 'certificate', reason, at: now };
  }
  return {
    next: {
      ...connection,
      contract: { version: certificate.contract.version, revision: certificate.contract.revision },
      capabilities,
      updatedAt: now,
    },
  };
}
