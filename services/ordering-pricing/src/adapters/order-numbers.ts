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
 * exactly. Where to start looking comes from this process's memory, else from the tenant's
 * counter document, which is only a starting point (written every tenth number, so most orders
 * cost one write here). A number claimed by a request that then failed stays unused: gaps are
 * possible, duplicates are not.
 */
export class OrderNumbers implements OrderNumbering {
  private readonly last = new Map<string, number>();

  constructor(private readonly claims: OrderClaimsRepository) {}

  async claim(owner: TenantOwner, orderId: string): Promise<string> {
    const { tenantId } = owner;
    let start = this.last.get(tenantId);
    if (start === undefined) start = Math.max((await this.claims.findOrderCounter(owner)) ?? 0, FIRST_ORDER_NUMBER - 1);
    for (let n = start + 1; ; n++) {
      if (!(await this.claims.claimOrderNumber(owner, n, orderId))) continue;
      if ((this.last.get(tenantId) ?? 0) < n) this.last.set(tenantId, n);
      if (n % COUNTER_EVERY === 0) await this.claims.raiseOrderCounter(owner, n).catch(() => undefined);
      return String(n);
    }
  }
}
