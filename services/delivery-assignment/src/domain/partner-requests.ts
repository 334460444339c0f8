import { createHash } from 'node:crypto';
import { conflict } from '@marketplace/errors';
import type { DeliveryAssignmentResponse } from '@marketplace/contracts';

/**
 * The Partner API's idempotency, kept by this service too. The gateway stores each 2xx it forwards
 * and replays it, but when the gateway gave up waiting (504) after the change was made here, it
 * stored nothing: the partner's retry with the same Idempotency-Key must still get the first
 * answer, not a 409 on the state that answer produced. So each successful partner action stores
 * its answer on the delivery, in the same compare-and-set write as the change itself (a crash
 * cannot keep one without the other), under the installation and the key.
 */
export interface PartnerRequest {
  /** `<installationId>:<SHA-256 of the Idempotency-Key>`: keys are per installation (the gateway's record id). */
  id: string;
  /** Method, path and canonical JSON body: what makes two requests "the same". */
  fingerprint: string;
  /** The answer sent, replayed as it is. */
  response: DeliveryAssignmentResponse;
  createdAt: Date;
  expiresAt: Date;
}

/** A partner action as received: who sent it with which key, and what it asked for. */
export interface PartnerRequestKey {
  installationId: string;
  /** Absent only on a request the gateway did not key (it keys every POST and PATCH). */
  idempotencyKey?: string;
  fingerprint: string;
}

export const partnerRequestId = (installationId: string, idempotencyKey: string) =>
  `${installationId}:${createHash('sha256').update(idempotencyKey).digest('base64url')}`;

/**
 * What of a delivery these rules read and write: its request records. Structural, so that
 * delivery.ts can name PartnerRequest without an import cycle.
 */
interface HoldsRequests {
  partnerRequests?: PartnerRequest[];
}

/** The delivery's unexpired record of this request id, if any. */
export function storedRequest(delivery: HoldsRequests | undefined, id: string, now: Date): PartnerRequest | undefined {
  return delivery?.partnerRequests?.find((r) => r.id === id && r.expiresAt > now);
}

/** The stored answer for a repeat of the same request; the same key with another request is 409. */
export function replay(stored: PartnerRequest, fingerprint: string): DeliveryAssignmentResponse {
  if (stored.fingerprint !== fingerprint)
    throw conflict('idempotency.key_reused', 'This Idempotency-Key was used for a different request.');
  return stored.response;
}

/** The delivery carrying `record` too; records past their retention are dropped on the way. */
export function withRequest<D extends HoldsRequests>(delivery: D, record: PartnerRequest, now: Date): D {
  const kept = (delivery.partnerRequests ?? []).filter((r) => r.expiresAt > now && r.id !== record.id);
  return { ...delivery, partnerRequests: [...kept, record] };
}
