import { randomUUID } from 'node:crypto';
import { conflict } from '@marketplace/errors';
import { isDuplicateKeyError } from '@marketplace/store';
import type { TenantInput } from '@marketplace/contracts';
import type { Tenant } from '../../domain/entities';
import type { GatewayContext } from '../context';

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
