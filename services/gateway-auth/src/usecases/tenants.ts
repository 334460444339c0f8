import { randomUUID } from 'node:crypto';
import { conflict, notFound } from '@marketplace/errors';
import { isDuplicateKeyError } from '@marketplace/store';
import { signBearerToken } from '@marketplace/identity';
import type { TenantInput } from '@marketplace/contracts';
import type { GatewayContext } from './context';
import type { Tenant } from './entities';

export interface TenantToken {
  token: string;
  expiresAt: Date;
}

export async function createTenant(ctx: GatewayContext, input: TenantInput): Promise<Tenant> {
  const doc: Tenant = { _id: randomUUID(), ...input, createdAt: ctx.now() };
  try {
    await ctx.store.tenants.insert(doc);
  } catch (error) {
    if (isDuplicateKeyError(error))
      throw conflict('marketplace.tenant.slug_taken', 'A tenant with this slug already exists.');
    throw error;
  }
  return doc;
}

export async function listTenants(ctx: GatewayContext, slug?: string): Promise<Tenant[]> {
  if (slug) {
    const tenant = await ctx.store.tenants.findBySlug(slug);
    return tenant ? [tenant] : [];
  }
  return ctx.store.tenants.listAllAcrossTenants(1000);
}

export async function getTenant(ctx: GatewayContext, tenantId: string): Promise<Tenant> {
  const doc = await ctx.store.tenants.findTenant({ tenantId });
  if (!doc) throw notFound();
  return doc;
}

/** A bearer token for the tenant API, bound to one tenant. */
export async function mintTenantToken(
  ctx: GatewayContext,
  tenantId: string,
  expiresInSeconds: number,
): Promise<TenantToken> {
  const tenant = await getTenant(ctx, tenantId);
  const now = ctx.now();
  const expiresAt = new Date(now.getTime() + expiresInSeconds * 1000);
  const token = signBearerToken(
    ctx.tokenSecret,
    { role: 'tenant', sub: `tenant:${tenant._id}`, tid: tenant._id },
    expiresAt,
    now,
  );
  return { token, expiresAt };
}
