import type { Tenant, TenantTokenRecord } from '../../domain/entities';
import type { TenantToken } from '../../usecases/tenants/mint-tenant-token';

/** A tenant as the administrator API shows it. */
export const tenantView = (t: Tenant) => ({
  id: t._id,
  slug: t.slug,
  name: t.name,
  currencyCode: t.currencyCode,
  defaultLanguage: t.defaultLanguage,
  sandbox: t.sandbox === true,
  createdAt: t.createdAt.toISOString(),
});

/** A minted tenant bearer token: the token shown once, with its id. */
export const tenantTokenView = (t: TenantToken) => ({
  id: t.id,
  token: t.token,
  tokenType: 'Bearer',
  expiresAt: t.expiresAt.toISOString(),
});

/** A minted token as the administrators' list shows it: ids and dates, never the token. */
export const tenantTokenRecordView = (t: TenantTokenRecord) => ({
  id: t._id,
  tenantId: t.tenantId,
  issuedBy: t.issuedBy,
  createdAt: t.createdAt.toISOString(),
  expiresAt: t.expiresAt.toISOString(),
  revokedAt: t.revokedAt?.toISOString() ?? null,
  revokedBy: t.revokedBy,
});
