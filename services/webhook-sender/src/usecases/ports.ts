import type { PartitionBehind } from '@marketplace/events';
import type { InstallationOwner, TenantOwner } from '@marketplace/store';
import type { AttemptEvent } from '../domain/attempt-event';
import type {
  AttemptRecord,
  Delivery,
  DeliveryStateChange,
  PartnerWebhookDelivery,
  ProviderCallbackDelivery,
} from '../domain/delivery';
import type { DeliveryKindName } from '../domain/delivery-kinds';
import type { DeliveryStatus } from '../domain/delivery-status';
import type { InstallationCopy } from '../domain/installation';
import type { AccountOwner } from '../domain/provider-callback';
import type { SendResult } from '../domain/attempt-decision';

/**
 * The ports the use cases work through, each implemented by an adapter (adapters/) and wired in
 * service.ts; a unit test hands in small in-memory fakes. Owners scope every write: a tenant (and
 * its installation) for partner webhooks, a platform account for provider callbacks.
 */

/**
 * The deliveries of both kinds (adapters/deliveries-repository.ts). A write that stages attempt
 * events publishes them itself (its outbox), in the same call.
 */
export interface DeliveriesStore {
  /** A new partner webhook with its first attempt; false when its id is taken (the same event again). */
  create(
    owner: InstallationOwner,
    delivery: Omit<PartnerWebhookDelivery, 'tenantId' | 'installationId'>,
    events: AttemptEvent[],
    now: Date,
  ): Promise<boolean>;
  /** The same for a provider callback of the platform account. */
  createForAccount(
    owner: AccountOwner,
    delivery: Omit<ProviderCallbackDelivery, 'accountId'>,
    events: AttemptEvent[],
    now: Date,
  ): Promise<boolean>;
  /** The delivery an attempt message names (its id is globally unique). */
  findForAttempt(deliveryId: string): Promise<Delivery | undefined>;
  /** One partner webhook of the tenant, or of one installation of it when the owner names one. */
  findForTenant(
    owner: TenantOwner | InstallationOwner,
    deliveryId: string,
  ): Promise<PartnerWebhookDelivery | undefined>;
  findProviderCallback(deliveryId: string): Promise<ProviderCallbackDelivery | undefined>;
  listForInstallation(
    owner: InstallationOwner,
    options: { status?: DeliveryStatus; limit: number },
  ): Promise<PartnerWebhookDelivery[]>;
  listForAccount(
    owner: AccountOwner,
    options: { providerDeliveryId?: string; status?: DeliveryStatus; limit: number },
  ): Promise<ProviderCallbackDelivery[]>;
  /** Whether a terminal event of the provider delivery was sent, or may have been (marked as leaving). */
  terminalEventSent(owner: AccountOwner, providerDeliveryId: string): Promise<boolean>;
  /** Marks a terminal callback as sent before its request leaves. */
  markSending(owner: AccountOwner, deliveryId: string, at: Date): Promise<void>;
  /**
   * The pending partner webhooks of the installation about `subject` created at or before
   * `createdAt` (the caller keeps those that came before its own: domain/webhook-sequence.ts).
   */
  pendingOfSubject(
    owner: InstallationOwner,
    subject: string,
    createdAt: Date,
  ): Promise<Pick<PartnerWebhookDelivery, '_id' | 'createdAt' | 'nextAttemptAt'>[]>;
  /** Whether a nonterminal event of the provider delivery still waits for its first attempt. */
  hasUnattemptedNonterminal(owner: AccountOwner, providerDeliveryId: string): Promise<boolean>;
  /** Whether a terminal event of the provider delivery was received. */
  hasTerminalEvent(owner: AccountOwner, providerDeliveryId: string): Promise<boolean>;
  /** Sets the state, appends the attempt (none for a cancellation or a hold), stages `events`. */
  recordAttempt(
    owner: InstallationOwner | AccountOwner,
    deliveryId: string,
    state: DeliveryStateChange,
    attempt: AttemptRecord | undefined,
    events: AttemptEvent[],
    now: Date,
  ): Promise<void>;
  /** A new round of a finished delivery, its first attempt staged. */
  startRound(
    owner: TenantOwner | AccountOwner,
    deliveryId: string,
    state: DeliveryStateChange,
    events: AttemptEvent[],
    now: Date,
  ): Promise<void>;
}

/** The sender's copy of the installations (adapters/installation-copies-repository.ts). */
export interface InstallationCopiesStore {
  /** Replaces the held copy unless that one has a higher revision. */
  saveIfNewer(owner: InstallationOwner, snapshot: Omit<InstallationCopy, '_id' | 'tenantId'>): Promise<boolean>;
  findForTenant(owner: TenantOwner, installationId: string): Promise<InstallationCopy | undefined>;
  listForTenant(owner: TenantOwner): Promise<InstallationCopy[]>;
  /** The sandbox's `webhook.fail`: the next `times` attempts fail unsent; false when no copy is held yet. */
  setSandboxFailures(owner: InstallationOwner, times: number): Promise<boolean>;
  /** Takes one of those failures if any is left (atomic: two attempts never take the same one). */
  takeSandboxFailure(owner: InstallationOwner): Promise<boolean>;
}

/** The newest known signing secret of each platform account, sealed (adapters/account-secrets-repository.ts). */
export interface AccountSecretsStore {
  saveIfNewer(owner: AccountOwner, secret: { sealed: string; rotatedAt: Date }): Promise<boolean>;
  findForAccount(owner: AccountOwner): Promise<{ sealed: string; rotatedAt: Date } | undefined>;
}

/** What the sender keeps about itself (adapters/meta-repository.ts). */
export interface MetaStore {
  /** The time of the sender's first start: `now` the first time, the stored one ever after. */
  claimSendingSince(now: Date): Promise<Date>;
}

/** What the use cases reach storage through: one repository per collection. */
export interface WebhookStore {
  deliveries: DeliveriesStore;
  installations: InstallationCopiesStore;
  accountSecrets: AccountSecretsStore;
  meta: MetaStore;
}

/** Serializes work on one name across every sender process (a Redis lock); undefined if it never came free. */
export interface Locks {
  withLock<T>(
    name: string,
    options: { ttlMs: number; waitMs: number },
    work: () => Promise<T>,
  ): Promise<{ value: T } | undefined>;
}

/** POSTs the exact body bytes to a receiver, behind outbound safety; never throws for network problems. */
export interface WebhookHttp {
  post(url: string, headers: Record<string, string>, body: Buffer, contentType?: string): Promise<SendResult>;
}

/** What attempts report to Prometheus (never an id, a URL or a secret as a label). */
export interface AttemptMetrics {
  /** `attempt`: the attempt's number in its round (1 the first), reported as its retry tier. */
  attempted(
    kind: DeliveryKindName,
    type: string,
    attempt: number,
    verdict: string,
    errorClass: string | null,
    seconds: number,
  ): void;
  ended(kind: DeliveryKindName, status: string): void;
}

/**
 * Opens what arrives sealed under WEBHOOK_SECRET_TRANSPORT_KEY, each bound to its owner (a value
 * sealed for another owner does not open). Each throws when the value does not open.
 */
export interface Unsealer {
  /** An installation's signing secret (the gateway's installation events). */
  installationSecret(installationId: string, sealed: string): string;
  /** A platform account's signing secret (provider-delivery's `provider-events`). */
  accountSecret(accountId: string, sealed: string): string;
  /** A provider delivery's callback URL, whose path holds a confidential token (`provider-events`). */
  callbackUrl(providerDeliveryId: string, sealed: string): string;
}

/**
 * How far the installation copy has read the installations topic, as the consumers need it
 * (`CopyProgress` of @marketplace/events asks Kafka): domain events wait until the copy holds every
 * installation event published before them.
 */
export interface InstallationsProgress {
  /** Called by the installations consumer after each message (repeats included). */
  handledUpTo(partition: number, offset: string): void;
  /** The partitions whose installation events published before `time` are not all in the copy yet; empty when caught up. */
  behindAt(time: Date): Promise<PartitionBehind[]>;
}
