import type { Tenant } from '../../usecases/entities';
import type { TenantToken } from '../../usecases/tenants';

/** A tenant as the administrator API shows it. */
export const tenantView = (t: Tenant) => ({
  id: t._id,
  slug: t.slug,
  name: t.name,
  currencyCode: t.currencyCode,
  defaultLanguage: t.defaultLanguage,
  createdAt: t.createdAt.toISOString(),
});

/** A minted tenant bearer token. */
export const tenantTokenView = (t: TenantToken) => ({
  token: t.token,
  tokenType: 'Bearer',
  expiresAt: t.expiresAt.toISOString(),
});
