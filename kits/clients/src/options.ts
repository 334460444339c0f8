import type { ClientOptions } from 'openapi-fetch';

/** What every factory takes besides its credential. */
export interface BaseOptions {
  /** The origin (scheme, host, port) the API is served at; the provider contract's ends in `/v1`. */
  baseUrl: string;
  /** A `fetch` of your own (a test double, a proxy agent); the global one by default. */
  fetch?: ClientOptions['fetch'];
}

/** openapi-fetch's options: the base URL without a trailing slash, and the Authorization header. */
export function clientOptions({ baseUrl, fetch }: BaseOptions, authorization: string): ClientOptions {
  return {
    baseUrl: baseUrl.replace(/\/+$/, ''),
    headers: { authorization },
    ...(fetch ? { fetch } : {}),
  };
}
