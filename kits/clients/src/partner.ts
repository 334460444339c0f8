import { randomUUID } from 'node:crypto';
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './generated/partner';
import { clientOptions, type BaseOptions } from './options';

export type PartnerClient = Client<paths>;

/**
 * The Partner API (docs/api/partner.openapi.json) as an installation calls it: `Authorization:
 * ApiKey <key>`, with the API key shown once at connect. `baseUrl` is the marketplace's origin (the
 * paths carry `/api/partner/v1`).
 */
export function createPartnerClient(options: BaseOptions & { apiKey: string }): PartnerClient {
  return createClient<paths>(clientOptions(options, `ApiKey ${options.apiKey}`));
}

/**
 * The `Idempotency-Key` header every Partner API POST and PATCH requires: a new key unless one is
 * given. Keep the key of a request you may retry and send it again with the retry: the gateway
 * answers a replay with the first answer (for 24 hours), so an order is never created twice.
 */
export function idempotencyHeader(key: string = randomUUID()): { 'Idempotency-Key': string } {
  return { 'Idempotency-Key': key };
}
