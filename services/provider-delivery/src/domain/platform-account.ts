import { randomBytes } from 'node:crypto';
import {
  PLATFORM_RATE_LIMIT,
  PROVIDER_EVENT_TYPES,
  SPEC_EVENT_TYPES,
  type ProviderEventTypeName,
} from '@marketplace/contracts';
import type { FieldErrors } from '@marketplace/errors';
import type { AreaGeometry } from '@marketplace/geo';

/** The area the account is served in: a GeoJSON Polygon or MultiPolygon (@marketplace/geo). */
export type ServiceArea = AreaGeometry;

/**
 * What a platform account (the integration audience) may do: the spec's capability names, declared
 * during onboarding and configured by us. `supportsProofOfDelivery` MUST remain false in this
 * revision of the contract.
 */
export interface Capabilities {
  supportsPolling: boolean;
  supportsReturnToOrigin: boolean;
  supportsProofOfDelivery: false;
  supportsScheduledDelivery: boolean;
  supportsUpdates: boolean;
  supportsCancellation: boolean;
}

/**
 * The platform API's rate limit of an account: at most `requestsPerMinute` authenticated `/v1`
 * requests in any minute (a sliding window), every endpoint counted together.
 */
export interface RateLimit {
  requestsPerMinute: number;
}

/** The limit of an account created without one, and of an account stored before limits existed. */
export const defaultRateLimit = (): RateLimit => ({
  requestsPerMinute: PLATFORM_RATE_LIMIT.defaultRequestsPerMinute,
});

/**
 * The courier simulator of an account (local setups, tests, the demo; it runs only where the
 * service's SIMULATOR_ENABLED is set): `drivers` simulated drivers take its deliveries, and a
 * delivery created while it is on runs on a clock `timeScale` times faster than real time for its
 * whole life (preparation, offers, dispatch window, travel, estimates).
 */
export interface SimulatorSettings {
  enabled: boolean;
  drivers: number;
  timeScale: number;
}

export const SIMULATOR_OFF: SimulatorSettings = { enabled: false, drivers: 0, timeScale: 1 };

/** The clock scale of a delivery created now for the account. */
export const timeScaleOf = (account: PlatformAccount): number =>
  account.simulator.enabled ? account.simulator.timeScale : 1;

/**
 * The event types an account that never chose receives (one stored before the choice existed
 * too): exactly the spec's table. Our own types are opt-in: a platform built against the table may
 * answer them 4xx, which the sender takes as permanent.
 */
export const defaultEventTypes = (): ProviderEventTypeName[] => [...SPEC_EVENT_TYPES];

/**
 * The event types an administrator chose, in the order of the known types and each once, or the
 * field errors naming the unknown ones (the schema refuses them first; this keeps the rule whole
 * for any other caller).
 */
export function checkEventTypes(
  requested: readonly string[],
): { eventTypes: ProviderEventTypeName[] } | { errors: FieldErrors } {
  const known: readonly string[] = PROVIDER_EVENT_TYPES;
  const unknown = requested.filter((type) => !known.includes(type));
  if (unknown.length > 0)
    return { errors: { eventTypes: unknown.map((type) => `${JSON.stringify(type)} is not a known event type`) } };
  return { eventTypes: PROVIDER_EVENT_TYPES.filter((type) => requested.includes(type)) };
}

/** Of the events a change sends, those the account receives (the others are not published). */
export const eventsFor = (
  chosen: readonly ProviderEventTypeName[],
  types: readonly ProviderEventTypeName[],
): ProviderEventTypeName[] => types.filter((type) => chosen.includes(type));

/** A platform that calls us: its settings. Keys and the webhook secret are kept apart. */
export interface PlatformAccount {
  id: string;
  name: string;
  /** The global webhook URL: used when a create brings no `webhook.url`; null for none. */
  webhookUrl: string | null;
  capabilities: Capabilities;
  serviceArea: ServiceArea;
  rateLimit: RateLimit;
  simulator: SimulatorSettings;
  /** The event types its platform receives (`defaultEventTypes` unless chosen). */
  eventTypes: ProviderEventTypeName[];
  createdAt: Date;
  updatedAt: Date;
}

/** Capabilities as requested (the schema allows a boolean for each; the rule below says which). */
export type RequestedCapabilities = Omit<Capabilities, 'supportsProofOfDelivery'> & {
  supportsProofOfDelivery: boolean;
};

/**
 * The capabilities an account may hold, or the field errors: proof of delivery is outside this
 * contract revision, so `supportsProofOfDelivery: true` is refused (400), never silently dropped.
 */
export function checkCapabilities(
  requested: RequestedCapabilities,
): { capabilities: Capabilities } | { errors: FieldErrors } {
  if (requested.supportsProofOfDelivery)
    return {
      errors: {
        'capabilities.supportsProofOfDelivery': ['must be false: proof of delivery is outside contract revision 1.1.0'],
      },
    };
  return { capabilities: { ...requested, supportsProofOfDelivery: false } };
}

/**
 * The signing secret of the account's webhooks (HMAC-SHA256, X-Platform-Signature): `pwhsec_` and
 * 43 base64url characters (256 bits). Shown once when minted; stored sealed, since signing needs
 * the plain value.
 */
export function mintWebhookSecret(): string {
  return `pwhsec_${randomBytes(32).toString('base64url')}`;
}

/** The owner of account data: every repository method on it takes this, and filters by it. */
export interface AccountOwner {
  readonly accountId: string;
}

/** Where an account's sealed webhook secret is bound (associated data of the seal). */
export const webhookSecretContext = (accountId: string) => `platform-account:${accountId}:webhook-secret`;
