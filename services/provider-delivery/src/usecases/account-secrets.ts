import type { ProviderEventTypeName } from '@marketplace/contracts';
import { sealForTransport, TRANSPORT_CONTEXTS } from '@marketplace/identity';

/** How long an account's secret, sealed for the webhook sender, is reused from memory. */
export const TRANSPORT_SECRET_TTL_MS = 5_000;

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

/**
 * Every delivery event tells the webhook sender the account's current signing secret, sealed under
 * WEBHOOK_SECRET_TRANSPORT_KEY for that account. Opening the secret at rest and sealing it again
 * costs a read and two ciphers, so the sealed form is kept for a few seconds per account; a
 * rotation through this process drops it at once, and the sender keeps the newest by `rotatedAt`
 * whatever order copies of this service publish in. The account's chosen event types ride along
 * (an administrator's change through another copy applies within the same few seconds).
 */
export class TransportSecrets {
  private readonly entries = new Map<string, { publishing: AccountPublishing; until: number }>();

  constructor(private readonly ttlMs = TRANSPORT_SECRET_TTL_MS) {}

  /** The cached publishing settings of the account, or those `load` gives (then cached). */
  async of(accountId: string, nowMs: number, load: () => Promise<AccountPublishing>): Promise<AccountPublishing> {
    const entry = this.entries.get(accountId);
    if (entry && entry.until > nowMs) return entry.publishing;
    const publishing = await load();
    if (this.entries.size >= 10_000) this.entries.clear();
    this.entries.set(accountId, { publishing, until: nowMs + this.ttlMs });
    return publishing;
  }

  forget(accountId: string): void {
    this.entries.delete(accountId);
  }
}

export const sealedForTransport = (
  transportKey: Buffer,
  accountId: string,
  plain: string,
  rotatedAt: Date,
): TransportSecret => ({
  sealed: sealForTransport(transportKey, TRANSPORT_CONTEXTS.platformAccountSecret(accountId), plain),
  rotatedAt: rotatedAt.toISOString(),
});
