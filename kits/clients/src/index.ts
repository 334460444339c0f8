export { createAdminClient, type AdminClient, type AdminPaths } from './admin';
export { createCourierClient, type CourierClient } from './courier';
export type { BaseOptions } from './options';
export { createPartnerClient, idempotencyHeader, type PartnerClient } from './partner';
export { createProviderClient, type ProviderClient } from './provider';
export { createTenantClient, type PathsUnder, type TenantClient, type TenantPaths } from './tenant';

// Every document's generated types, by audience: `paths` (what the clients are typed by) and
// `components` (its schemas: `PartnerComponents['schemas']['CreateOrderRequest']`).
export type { paths as PartnerPaths, components as PartnerComponents } from './generated/partner';
export type {
  paths as ProviderContractPaths,
  components as ProviderContractComponents,
} from './generated/provider-contract';
export type { paths as CourierPaths, components as CourierComponents } from './generated/provider-courier';
export type { paths as MarketplacePaths, components as MarketplaceComponents } from './generated/marketplace';
export type { paths as TenantCatalogPaths, components as TenantCatalogComponents } from './generated/tenant-catalog';
export type { paths as TenantOrdersPaths, components as TenantOrdersComponents } from './generated/tenant-orders';
export type {
  paths as TenantDeliveriesPaths,
  components as TenantDeliveriesComponents,
} from './generated/tenant-deliveries';
export type { paths as TenantWebhooksPaths, components as TenantWebhooksComponents } from './generated/tenant-webhooks';
export type { paths as ProviderAdminPaths, components as ProviderAdminComponents } from './generated/provider-admin';
export type {
  paths as ProviderCallbacksAdminPaths,
  components as ProviderCallbacksAdminComponents,
} from './generated/provider-callbacks-admin';
