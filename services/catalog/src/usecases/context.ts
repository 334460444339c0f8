import type { Logger } from '@marketplace/logging';
import type { OutboxRelay } from '@marketplace/outbox';
import type { TenantIdentity, PartnerIdentity } from '@marketplace/identity';
import type { CatalogStore } from '../adapters/store';
import { canonicalLanguage } from '../domain/language';
import { currencyDecimals } from '@marketplace/money';
import type { TenantRules } from '../domain/rules';
import type { MenuReads } from './menu-reads';

/** What the use cases work with. */
export interface CatalogContext {
  /** The repositories: every query is scoped to a tenant, and one change at a time per tenant (store.locks). */
  store: CatalogStore;
  outbox: OutboxRelay;
  reads: MenuReads;
  logger: Logger;
  now(): Date;
}

/** The tenant a request acts for, with what its catalog rules need (from the gateway's signed identity). */
export interface TenantScope extends TenantRules {
  tenantId: string;
  decimals: number;
}

export function tenantScope(identity: TenantIdentity | PartnerIdentity): TenantScope {
  const { currencyCode, defaultLanguage } = identity.tenant;
  return {
    tenantId: identity.tenantId,
    currencyCode,
    decimals: currencyDecimals(currencyCode),
    // The gateway checks the tag's shape only; compare in canonical form.
    defaultLanguage: canonicalLanguage(defaultLanguage) ?? defaultLanguage,
  };
}
