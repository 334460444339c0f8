import type { TenantProfile } from '@marketplace/identity';
import type { CachedApiKey } from '../ports';

/** A stored key as the key cache holds it (with its tenant's profile, which owners need). */
export function toCachedApiKey(
  doc: Omit<CachedApiKey, 'tenant' | 'expiresAt'> & { expiresAt?: Date | null },
  tenant: TenantProfile,
): CachedApiKey {
  return {
    secretHash: doc.secretHash,
    tenantId: doc.tenantId,
    installationId: doc.installationId,
    appId: doc.appId,
    scopes: doc.scopes,
    tenant,
    expiresAt: doc.expiresAt?.getTime() ?? null,
  };
}
