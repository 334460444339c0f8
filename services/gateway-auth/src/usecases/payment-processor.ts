import { notFound } from '@marketplace/errors';
import type { ProcessorIdentity } from '@marketplace/identity';
import { newProcessorSecret, signatureMatches, timestampAcceptable } from '../domain/processor-signature';
import type { GatewayContext } from './context';
import { tenantProfile } from './credentials';
import type { ProcessorSecrets } from './entities';

/**
 * How long the previous processor secret keeps working after a rotation: a day to put the new one
 * into the processor's dashboard, without a notification refused meanwhile.
 */
export const PROCESSOR_SECRET_OVERLAP_SECONDS = 24 * 60 * 60;

/** Where a tenant's processor sends its notifications (the path the gateway routes, below). */
export const processorNotificationPath = (tenantId: string) => `/api/payments/v1/tenants/${tenantId}/notifications`;

/** What every processor secret is sealed to (see SecretBox): one tenant's, never another's. */
const sealContext = (tenantId: string) => `tenant:${tenantId}:processor-secret`;

export interface ProcessorSettings {
  configured: boolean;
  notificationUrl: string;
  rotatedAt: Date | null;
  previousValidUntil: Date | null;
}

function settingsOf(ctx: GatewayContext, tenantId: string, secrets: ProcessorSecrets | null): ProcessorSettings {
  const now = ctx.now();
  const overlapping =
    secrets?.previousValidUntil && secrets.previousValidUntil > now ? secrets.previousValidUntil : null;
  return {
    configured: secrets !== null,
    notificationUrl: new URL(processorNotificationPath(tenantId), ctx.publicBaseUrl).toString(),
    rotatedAt: secrets?.rotatedAt ?? null,
    previousValidUntil: overlapping,
  };
}

export async function processorSettings(ctx: GatewayContext, tenantId: string): Promise<ProcessorSettings> {
  const secrets = await ctx.store.tenants.processorSecretsOf({ tenantId });
  if (secrets === undefined) throw notFound();
  return settingsOf(ctx, tenantId, secrets);
}

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
  const next: ProcessorSecrets = {
    currentSealed: ctx.box.seal(secret, sealContext(tenantId)),
    rotatedAt: now,
    previousSealed: existing?.currentSealed ?? null,
    previousValidUntil: existing ? new Date(now.getTime() + PROCESSOR_SECRET_OVERLAP_SECONDS * 1000) : null,
  };
  if (!(await ctx.store.tenants.setProcessorSecrets(owner, next))) throw notFound();
  return { secret, settings: settingsOf(ctx, tenantId, next) };
}

/** Removes every processor secret at once (a leaked one, or a processor given up): notifications get 401. */
export async function revokeProcessorSecrets(ctx: GatewayContext, tenantId: string): Promise<void> {
  if (!(await ctx.store.tenants.setProcessorSecrets({ tenantId }, null))) throw notFound();
}

/** The secrets that verify a notification now: the current one, and the previous one within its overlap. */
function liveSecrets(ctx: GatewayContext, tenantId: string, secrets: ProcessorSecrets): string[] {
  const live = [ctx.box.open(secrets.currentSealed, sealContext(tenantId))];
  if (secrets.previousSealed && secrets.previousValidUntil && secrets.previousValidUntil > ctx.now())
    live.push(ctx.box.open(secrets.previousSealed, sealContext(tenantId)));
  return live;
}

/**
 * The processor identity of a notification to `tenantId`, when its timestamp is fresh and its
 * signature over the raw body matches a live secret of that tenant; undefined otherwise (an
 * unknown tenant, one without a processor secret, a stale or wrong signature: all the same 401).
 */
export async function authenticateProcessor(
  ctx: GatewayContext,
  tenantId: string,
  request: { timestamp: string | undefined; signature: string | undefined; rawBody: string },
): Promise<ProcessorIdentity | undefined> {
  if (!timestampAcceptable(request.timestamp, ctx.now().getTime())) return undefined;
  const secrets = await ctx.store.tenants.processorSecretsOf({ tenantId });
  if (!secrets) return undefined;
  if (!signatureMatches(liveSecrets(ctx, tenantId, secrets), request.timestamp!, request.signature, request.rawBody))
    return undefined;
  const tenant = await tenantProfile(ctx, tenantId);
  return tenant && { kind: 'processor', tenantId, tenant };
}
