import type { AccountPublishing, PublishingCache } from '../usecases/ports';

/** How long an account's secret, sealed for the webhook sender, is reused from memory. */
export const TRANSPORT_SECRET_TTL_MS = 5_000;

/**
 * Every delivery event tells the webhook sender the account's current signing secret, sealed under
 * WEBHOOK_SECRET_TRANSPORT_KEY for that account. Opening the secret at rest and sealing it again
 * costs a read and two ciphers, so the sealed form is kept for a few seconds per account; a
 * rotation through this process drops it at once, and the sender keeps the newest by `rotatedAt`
 * whatever order copies of this service publish in. The account's chosen event types ride along
 * (an administrator's change through another copy applies within the same few seconds).
 */
export class TransportSecrets implements PublishingCache {
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
