import { randomUUID } from 'node:crypto';
import { conflict, notFound } from '@marketplace/errors';
import { isDuplicateKeyError } from '@marketplace/store';
import { signBearerToken } from '../domain/bearer-token';
import type { TenantDoc } from '../adapters/store/documents';
import type { GatewayContext } from './context';

export interface TenantInput {
  slug: string;
  name: string;
  currencyCode: string;
  defaultLanguage: string;
}

export const tenantView = (t: TenantDoc) => ({
  id: t._id,
  slug: t.slug,
  name: t.name,
  currencyCode: t.currencyCode,
  defaultLanguage: t.defaultLanguage,
  createdAt: t.createdAt.toISOString(),
});

export async function createTenant(ctx: GatewayContext, input: TenantInput) {
  const doc: TenantDoc = { _id: randomUUID(), ...input, createdAt: ctx.now() };
  try {
    await ctx.store.tenants.insert(doc);
  } catch (error) {
    if (isDuplicateKeyError(error)) throw conflict('marketplace.tenant.slug_taken', 'A tenant with this slug already exists.');
    throw error;
  }
  return tenantView(doc);
}

export async function listTenants(ctx: GatewayContext, slug?: string) {
  if (slug) {
    const tenant = await ctx.store.tenants.findBySlug(slug);
    return tenant ? [tenantView(tenant)] : [];
  }
  return (await ctx.store.tenants.listAllAcrossTenants(1000)).map(tenantView);
}

export async function getTenant(ctx: GatewayContext, tenantId: string) {
  const doc = await ctx.store.tenants.findTenant({ tenantId });
  if (!doc) throw notFound();
  return doc;
}

/** A bearer token for the tenant API, bound to one tenant. */
export async function mintTenantToken(ctx: GatewayContext, tenantId: string, expiresInSeconds: number) {
  const tenant = await getTenant(ctx, tenantId);
  const now = ctx.now();
  const expiresAt = new Date(now.getTime() + expiresInSeconds * 1000);
  const token = signBearerToken(ctx.tokenSecret, { role: 'tenant', sub: `tenant:${tenant._id}`, tid: tenant._id }, expiresAt, now);
  return { token, tokenType: 'Bearer', expiresAt: expiresAt.toISOString() };
}
