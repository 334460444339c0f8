import createClient, { type Client } from 'openapi-fetch';
import type { paths as Marketplace } from './generated/marketplace';
import { clientOptions, type BaseOptions } from './options';
import type { PathsUnder } from './tenant';

/** The administrator routes of docs/api/marketplace.openapi.json: tenants, their tokens, apps, audit events. */
export type AdminPaths = PathsUnder<Marketplace, '/api/admin/'>;
export type AdminClient = Client<AdminPaths>;

/**
 * The marketplace's administrator API, as an operator calls it: `Authorization: Bearer <admin
 * token>`. `baseUrl` is the marketplace's origin. (provider-delivery's administrator APIs have
 * their types in `ProviderAdminPaths` and `ProviderCallbacksAdminPaths`.)
 */
export function createAdminClient(options: BaseOptions & { token: string }): AdminClient {
  return createClient<AdminPaths>(clientOptions(options, `Bearer ${options.token}`));
}
