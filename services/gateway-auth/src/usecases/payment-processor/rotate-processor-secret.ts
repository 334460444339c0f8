import { notFound } from '@marketplace/errors';
import { newProcessorSecret } from '../../domain/processor-signature';
import {
  processorSecretContext,
  processorSettingsOf,
  rotatedProcessorSecrets,
  type ProcessorSettings,
} from '../../domain/processor-secrets';
import type { GatewayContext } from '../context';

/**
 * A new processor secret, shown once; the one it replaces keeps working for the overlap. Two
 * rotations at the same moment: the later write wins, and the other's secret never works (the
 * tenant sees the settings' `rotatedAt` and rotates again).
 */
export async function rotateProcessorSecret(
  ctx: GatewayContext,
  tenantId: string,
): Promise<{ secret: string; settings: ProcessorSettings }> {
  const owner = { tenantId };
  const existing = await ctx.store.tenants.processorSecretsOf(owner);
  if (existing === undefined) throw notFound();
  const now = ctx.now();
  const secret = newProcessorSecret();
  const next = rotatedProcessorSecrets(existing, ctx.box.seal(secret, processorSecretContext(tenantId)), now);
  if (!(await ctx.store.tenants.setProcessorSecrets(owner, next))) throw notFound();
  return {
    secret,
    settings: processorSettingsOf(tenantId, next, { now: ctx.now(), publicBaseUrl: ctx.publicBaseUrl }),
  };
}
