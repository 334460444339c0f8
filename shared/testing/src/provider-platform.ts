import { randomUUID } from 'node:crypto';
import { signTestBearerToken } from './bearer-token';
import { localEnv } from './stack';

/*
 * What a test sends provider-delivery's administrator and platform APIs: an administrator token, a
 * platform account's settings and a valid delivery request. Here, not in provider-delivery's test
 * support, because the root tests may not import a service's files (.dependency-cruiser.cjs).
 */

/** An administrator token for the local stack's PROVIDER_ADMIN_TOKEN_SECRET, valid an hour. */
export function providerAdminToken(): string {
  const key = Buffer.from(localEnv().PROVIDER_ADMIN_TOKEN_SECRET!, 'base64');
  return signTestBearerToken(key, { role: 'admin', sub: 'test-admin' }, new Date(Date.now() + 3_600_000));
}

/** The service area of a test account: Berlin, around every address of `platformDeliveryRequest`. */
export const PLATFORM_SERVICE_AREA = {
  type: 'Polygon',
  coordinates: [
    [
      [13.3, 52.45],
      [13.5, 52.45],
      [13.5, 52.58],
      [13.3, 52.58],
      [13.3, 52.45],
    ],
  ],
};

export const ALL_PLATFORM_CAPABILITIES = {
  supportsPolling: true,
  supportsReturnToOrigin: true,
  supportsProofOfDelivery: false,
  supportsScheduledDelivery: true,
  supportsUpdates: true,
  supportsCancellation: true,
};

/**
 * The body of POST /admin/v1/platform-accounts: no webhook, every capability unless told, a rate
 * limit high enough not to be met (100,000 a minute unless told), the simulator only when given.
 */
export function platformAccountSettings(
  name: string,
  options: {
    webhookUrl?: string | null;
    capabilities?: Partial<typeof ALL_PLATFORM_CAPABILITIES>;
    requestsPerMinute?: number;
    simulator?: { enabled: boolean; drivers: number; timeScale: number };
  } = {},
): Record<string, unknown> {
  return {
    name,
    webhookUrl: options.webhookUrl ?? null,
    capabilities: { ...ALL_PLATFORM_CAPABILITIES, ...options.capabilities },
    serviceArea: PLATFORM_SERVICE_AREA,
    rateLimit: { requestsPerMinute: options.requestsPerMinute ?? 100_000 },
    ...(options.simulator ? { simulator: options.simulator } : {}),
  };
}

/** A valid POST /v1/deliveries body inside `PLATFORM_SERVICE_AREA`; `overrides` replace fields. */
export function platformDeliveryRequest(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const reference = `plat-${randomUUID()}`;
  return {
    platformReference: reference,
    idempotencyKey: reference,
    pickupAddress: 'Torstraße 1, 10119 Berlin',
    pickupLat: 52.529,
    pickupLng: 13.401,
    customerName: 'Ada Customer',
    customerPhone: '+49 30 1234567',
    dropoffAddress: 'Kastanienallee 10, 10435 Berlin',
    dropoffLat: 52.538,
    dropoffLng: 13.409,
    paymentMethod: 'card',
    amount: 23.5,
    deliveryFeeAmount: 2.99,
    currency: 'EUR',
    notes: 'Ring twice',
    preparationTimeMinutes: 15,
    ...overrides,
  };
}
