import type { ProviderEventTypeName, ProviderStatusName } from '@marketplace/contracts';
import type { SafeHttpClient } from '@marketplace/http';
import type { ApiKeysRepository, StoredApiKey } from '../adapters/api-keys-repository';
import type { OutboxFields } from '@marketplace/outbox';
import type { DeliveriesRepository, DeliveryDoc } from '../adapters/deliveries-repository';
import type { DriversRepository } from '../adapters/drivers-repository';
import type { PlatformAccountsRepository } from '../adapters/platform-accounts-repository';
import type { Admission, Surface } from '../domain/rate-limit';
import type { PlatformAccount } from '../domain/platform-account';

// The ports the use cases take through their context, beside the repositories (adapters/store.ts):
// each an interface that an adapter implements and service.ts wires in, so that a use case can run
// in a unit test with small in-memory fakes.

/** A repository as its use cases see it: its public methods, whatever implements them. */
type PortOf<T> = Pick<T, keyof T>;

/**
 * provider-delivery's repositories (adapters/store.ts implements them on MongoDB). Every method on
 * an account's data takes the account (`AccountOwner`) and filters by it. Events are staged in the
 * write that makes them (the outbox) and published with `StagedEvents`.
 */
export interface ProviderRepositories {
  accounts: PortOf<PlatformAccountsRepository>;
  apiKeys: PortOf<ApiKeysRepository>;
  deliveries: PortOf<DeliveriesRepository>;
  drivers: PortOf<DriversRepository>;
}

/**
 * Publishes at once the events a write staged in its document (the outbox relay's fast path; its
 * sweep publishes what a failed one left). Never throws. The collections stay in adapters/.
 */
export interface StagedEvents {
  /** After a change of the delivery that staged events. */
  publishDelivery(providerDeliveryId: string): Promise<void>;
  /** After the insert of a new delivery, as the repository wrote it (no read back). */
  publishInsertedDelivery(inserted: DeliveryDoc & OutboxFields): Promise<void>;
  /** After a change of the account that staged events (a secret's rotation). */
  publishAccount(accountId: string): Promise<void>;
}

/** Seals and opens secrets at rest, bound to what they belong to (SecretBox of @marketplace/identity). */
export interface SecretSealer {
  seal(plain: string, context: string): string;
  open(sealed: string, context: string): string;
}

/** What deliveries report to Prometheus: counts by outcome and status, never an account or a delivery. */
export interface ProviderMetrics {
  /** A new delivery request decided: accepted, or refused by a business rule (rejected). */
  deliveryCreated(outcome: 'accepted' | 'rejected'): void;
  /** A delivery moved to `status` (however it came: platform, courier, dispatcher, operator). */
  deliveryStatusChanged(status: ProviderStatusName): void;
}

/** The keys that authenticated lately with their accounts, trusted for a few seconds (adapters/key-cache.ts). */
export interface ApiKeyCache {
  get(keyId: string, nowMs: number): { key: StoredApiKey; account: PlatformAccount } | undefined;
  set(key: StoredApiKey, account: PlatformAccount, nowMs: number): void;
  /** Drops the account's keys at once (a revocation, a rotation, a change of the account). */
  forgetAccount(accountId: string): void;
}

/** The account's signing secret as the events on `provider-events` carry it. */
export interface TransportSecret {
  sealed: string;
  rotatedAt: string;
}

/**
 * What publishing an account's delivery events needs: its signing secret sealed for the sender and
 * the event types its platform receives (read together, cached together).
 */
export interface AccountPublishing {
  secret: TransportSecret;
  eventTypes: readonly ProviderEventTypeName[];
}

/** The accounts' publishing settings, kept for a few seconds each (adapters/transport-secrets.ts). */
export interface PublishingCache {
  /** The cached settings of the account, or those `load` gives (then cached). */
  of(accountId: string, nowMs: number, load: () => Promise<AccountPublishing>): Promise<AccountPublishing>;
  forget(accountId: string): void;
}

/** The rate limits of the HTTP surfaces (http/rate-limits.ts counts them in Redis). */
export interface RequestLimits {
  /** The platform API's per-account limit (after the account is authenticated). */
  admit(account: PlatformAccount): Promise<Admission>;
  /** A surface's per-IP limit: every request, before its credentials are looked at. */
  fromIp(surface: Surface, ip: string): Promise<Admission>;
  forAdmin(sub: string): Promise<Admission>;
  forDriver(driverId: string): Promise<Admission>;
  /** Undefined for a malformed token (counted per IP only). */
  forTrackingToken(token: string): Promise<Admission> | undefined;
  /** A call of this process's courier simulator (its pass): no limit counts it. */
  exempt(presented: string | undefined): boolean;
}

/** Outbound calls to platform URLs (the webhook test): public addresses only, no redirects. */
export type OutboundHttp = Pick<SafeHttpClient, 'request'>;
