import type { ConformanceCertificate, ProviderCreateDeliveryRequest } from '@marketplace/contracts';
import type { Delivery } from '../domain/delivery';
import type { ProviderConnection } from '../domain/dispatch/connection';
import type { Dropoff } from '../domain/dispatch/create-request';
import type { CancelStage, ProviderAnswer } from '../domain/dispatch/dispatch';
import type { AssignmentTransition } from '../domain/transitions';

/** What assignments report to Prometheus: status transitions, never a tenant, an order or an installation. */
export interface AssignmentMetrics {
  transitioned(transition: AssignmentTransition): void;
}

/** Publishes the events waiting in a delivery's document (the outbox) right after the write. */
export interface DeliveryEvents {
  publish(orderId: string): Promise<void>;
}

/**
 * The deliveries this process wrote last (adapters/recent-deliveries.ts): spares a read, never
 * decides alone (usecases/change-delivery.ts).
 */
export interface RecentDeliveries {
  get(tenantId: string, orderId: string): Delivery | undefined;
  remember(delivery: Delivery): void;
  forget(orderId: string): void;
}

// ---- The marketplace as a platform of the Standard Delivery Provider Contract ----

/**
 * A provider's API, as the platform calls it (adapters/dispatch/provider-api.ts): the contract's
 * duties on every call (15 s, no redirects, at most 5 MiB read, the connection's Bearer key). One
 * attempt per call; the caller decides on retries (domain/dispatch/dispatch.ts).
 */
export interface ProviderApi {
  create(connection: ProviderConnection, body: ProviderCreateDeliveryRequest): Promise<ProviderAnswer>;
  cancel(connection: ProviderConnection, providerDeliveryId: string, stage: CancelStage): Promise<ProviderAnswer>;
  status(connection: ProviderConnection, providerDeliveryId: string): Promise<ProviderAnswer>;
  tracking(connection: ProviderConnection, providerDeliveryId: string): Promise<ProviderAnswer>;
}

/** Sealing and checking what a connection holds secret (adapters/dispatch/connection-secrets.ts). */
export interface ConnectionSecrets {
  sealCredentials(
    connectionId: string,
    credentials: { apiKey: string; signingSecret: string },
  ): { apiKeySealed: string; signingSecretSealed: string };
  sealCallbackUrl(assignmentId: string, url: string): string;
  openCallbackUrl(assignmentId: string, sealed: string): string;
  /** Whether X-Platform-Signature is the HMAC of the exact body bytes with the connection's secret (constant time). */
  verifyCallback(connection: ProviderConnection, rawBody: Buffer, signature: string | undefined): boolean;
}

/** Whether a conformance certificate is signed, unedited, by a trusted key. */
export interface CertificateCheck {
  verify(certificate: ConformanceCertificate): { valid: boolean; reason: string };
}

/** Opens an order's sealed drop-off; throws when it does not open (another key, another order). */
export type DropoffOpener = (orderId: string, sealed: string) => Dropoff;

/** What the platform's dispatch reports to Prometheus: outcomes only, never an owner, a URL or a token. */
export interface DispatchMetrics {
  created(outcome: 'accepted' | 'rejected' | 'retried' | 'failed'): void;
  callback(
    outcome:
      | 'applied'
      | 'duplicate'
      | 'stale'
      | 'signature_failed'
      | 'unknown_token'
      | 'unknown_status'
      | 'invalid'
      | 'mismatch',
  ): void;
  callbackLag(seconds: number): void;
  polled(outcome: 'applied' | 'unchanged' | 'failed'): void;
  cancelSent(outcome: 'confirmed' | 'refused' | 'failed'): void;
}

/** Tells the dispatcher loop there is work now, instead of at its next round. */
export interface DispatchWork {
  kick(): void;
}

/** Publishes the events a dispatch's or a connection's write staged (dispatch-decisions, provider-connections). */
export interface PlatformEvents {
  dispatch(assignmentId: string): Promise<void>;
  connection(connectionId: string): Promise<void>;
}
