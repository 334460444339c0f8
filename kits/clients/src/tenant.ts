import createClient, { type Client } from 'openapi-fetch';
import type { paths as Marketplace } from './generated/marketplace';
import type { paths as Catalog } from './generated/tenant-catalog';
import type { paths as Deliveries } from './generated/tenant-deliveries';
import type { paths as Orders } from './generated/tenant-orders';
import type { paths as Webhooks } from './generated/tenant-webhooks';
import { clientOptions, type BaseOptions } from './options';

/** The paths of `P` that start with `prefix`. */
export type PathsUnder<P, Prefix extends string> = Pick<P, Extract<keyof P, `${Prefix}${string}`>>;

/** Every tenant route the gateway serves: installations and apps, catalog, ordering, deliveries, webhooks. */
export type TenantPaths = PathsUnder<Marketplace, '/api/tenant/'> & Catalog & Orders & Deliveries & Webhooks;
export type TenantClient = Client<TenantPaths>;

/**
 * The tenant API (the tenant half of docs/api/marketplace.openapi.json and the tenant-*.openapi.json
 * documents), as a restaurant's back office calls it: `Authorization: Bearer <tenant token>`.
 * `baseUrl` is the marketplace's origin.
 */
export function createTenantClient(options: BaseOptions & { token: string }): TenantClient {
  return createClient<TenantPaths>(clientOptions(options, `Bearer ${options.token}`));
}
