import { notFound } from '@marketplace/errors';
import type { GatewayContext } from '../context';

/** Removes every processor secret at once (a leaked one, or a processor given up): notifications get 401. */
export async function revokeProcessorSecrets(ctx: GatewayContext, tenantId: string): Promise<void> {
  if (!(await ctx.store.tenants.setProcessorSecrets({ tenantId }, null))) throw notFound();
}
