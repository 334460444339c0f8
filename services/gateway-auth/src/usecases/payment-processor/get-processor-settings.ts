import { notFound } from '@marketplace/errors';
import { processorSettingsOf, type ProcessorSettings } from '../../domain/processor-secrets';
import type { GatewayContext } from '../context';

/** What the tenant sees of its processor secrets (never a secret): 404 for an unknown tenant. */
export async function getProcessorSettings(ctx: GatewayContext, tenantId: string): Promise<ProcessorSettings> {
  const secrets = await ctx.store.tenants.processorSecretsOf({ tenantId });
  if (secrets === undefined) throw notFound();
  return processorSettingsOf(tenantId, secrets, { now: ctx.now(), publicBaseUrl: ctx.publicBaseUrl });
}
