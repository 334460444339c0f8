import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './generated/provider-courier';
import { clientOptions, type BaseOptions } from './options';

export type CourierClient = Client<paths>;

/**
 * provider-delivery's courier API (docs/api/provider-courier.openapi.json), as a driver's app calls
 * it: `Authorization: Bearer <courier token>`. `baseUrl` is the provider's origin followed by
 * `/courier/v1`.
 */
export function createCourierClient(options: BaseOptions & { token: string }): CourierClient {
  return createClient<paths>(clientOptions(options, `Bearer ${options.token}`));
}
