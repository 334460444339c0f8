import { createProviderClient } from 'marketplace-api-clients';
import { SafeHttpClient } from '@marketplace/http';
import type { ProviderCreateDeliveryRequest } from '@marketplace/contracts';
import type { ProviderConnection } from '../../domain/dispatch/connection';
import { PLATFORM_LIMITS, type CancelStage, type ProviderAnswer } from '../../domain/dispatch/dispatch';
import type { ProviderApi } from '../../usecases/ports';
import { NoAnswerError, safeFetch } from './safe-fetch';

/** Retry-After in seconds (a number of seconds or an HTTP date), or null. */
export function retryAfterSeconds(value: string | null, now = Date.now()): number | null {
  if (value === null || value.trim() === '') return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

/** The contract: every request carries the JSON media type with charset utf-8, and Accept application/json. */
const JSON_BODY = { accept: 'application/json', 'content-type': 'application/json; charset=utf-8' };

type Call = (
  client: ReturnType<typeof createProviderClient>,
) => Promise<{ response: Response; data?: unknown; error?: unknown }>;

/**
 * The provider-contract client (marketplace-api-clients, typed by the contract's OpenAPI document)
 * over the safe HTTP client: the platform's duties on every call (15 s, no redirects, at most
 * 5 MiB read, `Accept: application/json`, the connection's Bearer key opened only for the call).
 */
export class HttpProviderApi implements ProviderApi {
  private readonly fetch: typeof fetch;

  constructor(
    private readonly http: SafeHttpClient,
    private readonly openApiKey: (connection: ProviderConnection) => string,
  ) {
    this.fetch = safeFetch(http, PLATFORM_LIMITS.timeoutMs, PLATFORM_LIMITS.maxResponseBytes);
  }

  create(connection: ProviderConnection, body: ProviderCreateDeliveryRequest): Promise<ProviderAnswer> {
    return this.call(connection, (client) => client.POST('/deliveries', { body: body as never, headers: JSON_BODY }));
  }

  cancel(connection: ProviderConnection, providerDeliveryId: string, stage: CancelStage): Promise<ProviderAnswer> {
    return this.call(connection, (client) =>
      client.POST('/deliveries/{providerDeliveryId}/cancel', {
        params: { path: { providerDeliveryId } },
        body: { stage },
        headers: JSON_BODY,
      }),
    );
  }

  status(connection: ProviderConnection, providerDeliveryId: string): Promise<ProviderAnswer> {
    return this.call(connection, (client) =>
      client.GET('/deliveries/{providerDeliveryId}/status', {
        params: { path: { providerDeliveryId } },
        headers: { accept: 'application/json' },
      }),
    );
  }

  tracking(connection: ProviderConnection, providerDeliveryId: string): Promise<ProviderAnswer> {
    return this.call(connection, (client) =>
      client.GET('/deliveries/{providerDeliveryId}/tracking', {
        params: { path: { providerDeliveryId } },
        headers: { accept: 'application/json' },
      }),
    );
  }

  close(): void {
    this.http.close();
  }

  private async call(connection: ProviderConnection, call: Call): Promise<ProviderAnswer> {
    const client = createProviderClient({
      baseUrl: connection.baseUrl,
      apiKey: this.openApiKey(connection),
      fetch: this.fetch,
    });
    try {
      const { response, data, error } = await call(client);
      return {
        kind: 'answer',
        status: response.status,
        body: data ?? error ?? null,
        retryAfterSeconds: retryAfterSeconds(response.headers.get('retry-after')),
      };
    } catch (error) {
      if (error instanceof NoAnswerError) return { kind: 'network', detail: error.detail };
      // openapi-fetch could not read the answer (not JSON where JSON was promised).
      return { kind: 'network', detail: `an answer that could not be read: ${(error as Error).name}` };
    }
  }
}
