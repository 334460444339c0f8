import type { PartnerIdentity, ProcessorIdentity, TenantIdentity } from '@marketplace/identity';
import type { Logger } from '@marketplace/logging';
import { currencyDecimals } from '@marketplace/money';
import type { OutboxRelay } from '@marketplace/outbox';
import type { OrderLock } from '../adapters/order-lock';
import type { OrderingStore } from '../adapters/store';
import type { CopyReader } from './catalog-copy';
import type { OrderNumbers } from './order-numbers';

/** What the use cases work with. */
export interface OrderingContext {
  store: OrderingStore;
  outbox: OutboxRelay;
  /** One change at a time per order (by order id). */
  orderLock: OrderLock;
  orderNumbers: OrderNumbers;
  /** The catalog copy as order pricing reads it (cached per tenant sequence). */
  catalogCopy: CopyReader;
  logger: Logger;
  now(): Date;
}

/** The tenant a request acts for (from the gateway's signed identity). */
export interface TenantScope {
  tenantId: string;
  currencyCode: string;
  decimals: number;
}

export function tenantScope(identity: TenantIdentity | PartnerIdentity | ProcessorIdentity): TenantScope {
  return {
    tenantId: identity.tenantId,
    currencyCode: identity.tenant.currencyCode,
    decimals: currencyDecimals(identity.tenant.currencyCode),
  };
}
