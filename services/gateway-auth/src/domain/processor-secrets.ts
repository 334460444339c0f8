import type { ProcessorSecrets } from './entities';

/**
 * How long the previous processor secret keeps working after a rotation: a day to put the new one
 * into the processor's dashboard, without a notification refused meanwhile.
 */
export const PROCESSOR_SECRET_OVERLAP_SECONDS = 24 * 60 * 60;

/** Where a tenant's processor sends its notifications (the path the gateway routes). */
export const processorNotificationPath = (tenantId: string) => `/api/payments/v1/tenants/${tenantId}/notifications`;

/** What every processor secret is sealed to (see SecretBox): one tenant's, never another's. */
export const processorSecretContext = (tenantId: string) => `tenant:${tenantId}:processor-secret`;

export interface ProcessorSettings {
  configured: boolean;
  notificationUrl: string;
  rotatedAt: Date | null;
  previousValidUntil: Date | null;
}

/** What the tenant sees of its processor secrets: never a secret, the overlap only while it lasts. */
export function processorSettingsOf(
  tenantId: string,
  secrets: ProcessorSecrets | null,
  at: { now: Date; publicBaseUrl: string },
): ProcessorSettings {
  const overlapping =
    secrets?.previousValidUntil && secrets.previousValidUntil > at.now ? secrets.previousValidUntil : null;
  return {
    configured: secrets !== null,
    notificationUrl: new URL(processorNotificationPath(tenantId), at.publicBaseUrl).toString(),
    rotatedAt: secrets?.rotatedAt ?? null,
    previousValidUntil: overlapping,
  };
}

/**
 * The secrets after a rotation to `currentSealed`: the one it replaces (if any) keeps working for
 * the overlap.
 */
export function rotatedProcessorSecrets(
  existing: ProcessorSecrets | null,
  currentSealed: string,
  now: Date,
): ProcessorSecrets {
  return {
    currentSealed,
    rotatedAt: now,
    previousSealed: existing?.currentSealed ?? null,
    previousValidUntil: existing ? new Date(now.getTime() + PROCESSOR_SECRET_OVERLAP_SECONDS * 1000) : null,
  };
}

/** The sealed secrets that verify a notification now: the current one, and the previous one within its overlap. */
export function liveProcessorSecrets(secrets: ProcessorSecrets, now: Date): string[] {
  const live = [secrets.currentSealed];
  if (secrets.previousSealed && secrets.previousValidUntil && secrets.previousValidUntil > now)
    live.push(secrets.previousSealed);
  return live;
}
