import type { TenantOwner } from '@marketplace/store';
import type { OrderNumbering } from '../usecases/ports';
import type { OrderClaimsRepository } from './order-claims-repository';

/** Order numbers start here, so that every number has four digits at least. */
export const FIRST_ORDER_NUMBER = 1001;
/** The counter document is written every this many numbers: a restart probes at most this far. */
const COUNTER_EVERY = 10;

/**
 * Order numbers: a tenant's orders are numbered 1001, 1002, … (the order number is a string of
 * digits). Each number is claimed by a unique insert, which decides races between instances
 * exactly. This process hands out numbers from memory: each claim takes the next number at once,
 * before its insert, so concurrent orders in one process never try the same number (when each
 * started from the last number stored, k concurrent orders cost k·(k+1)/2 inserts, and a slow
 * store made k grow: a slowdown turned into a collapse). A number is tried again only when
 * another instance took it, or before a restart. Where to start comes from the tenant's counter
 * document, read once per tenant, which is only a starting point (written every tenth number).
 * A number whose claim failed or whose order was then refused stays unused: gaps are possible,
 * duplicates are not.
 */
export class OrderNumbers implements OrderNumbering {
  /** Per tenant: the last number this process handed out. */
  private readonly last = new Map<string, number>();
  /** Per tenant: the one read of the counter document that concurrent first claims share. */
  private readonly loading = new Map<string, Promise<void>>();

  constructor(private readonly claims: OrderClaimsRepository) {}

  async claim(owner: TenantOwner, orderId: string): Promise<string> {
    const { tenantId } = owner;
    if (!this.last.has(tenantId)) await this.loadStart(owner);
    for (;;) {
      const n = (this.last.get(tenantId) ?? FIRST_ORDER_NUMBER - 1) + 1;
      this.last.set(tenantId, n); // taken now, before the insert: the next claim tries the next number
      if (!(await this.claims.claimOrderNumber(owner, n, orderId))) continue; // another instance has it
      if (n % COUNTER_EVERY === 0) await this.claims.raiseOrderCounter(owner, n).catch(() => undefined);
      return String(n);
    }
  }

  private loadStart(owner: TenantOwner): Promise<void> {
    const { tenantId } = owner;
    let loading = this.loading.get(tenantId);
    if (!loading) {
      loading = this.claims
        .findOrderCounter(owner)
        .then((counter) => {
          if (!this.last.has(tenantId)) this.last.set(tenantId, Math.max(counter ?? 0, FIRST_ORDER_NUMBER - 1));
        })
        .finally(() => this.loading.delete(tenantId));
      this.loading.set(tenantId, loading);
    }
    return loading;
  }
}
