import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './generated/provider-contract';
import { clientOptions, type BaseOptions } from './options';

export type ProviderClient = Client<paths>;

/**
 * A delivery provider's API under the Standard Delivery Provider Contract
 * (docs/api/provider-contract.openapi.json), as a platform calls it: `Authorization: Bearer <key>`
 * with the platform account's API key. `baseUrl` is the provider environment's base URL, ending in
 * `/v1`.
 */
export function createProviderClient(options: BaseOptions & { apiKey: string }): ProviderClient {
  return createClient<paths>(clientOptions(options, `Bearer ${options.apiKey}`));
}
