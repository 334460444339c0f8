import type {
  PlatformAccount as PlatformAccountBody,
  PlatformApiKey,
  PlatformApiKeyMinted,
  ProviderStatusResponse,
  ProviderTrackingResponse,
  WebhookSecretRotated,
} from '@marketplace/contracts';
import { isLiveKey } from '../domain/api-key';
import type { Delivery } from '../domain/delivery';
import type { PlatformAccount } from '../domain/platform-account';
import type { MintedKey } from '../usecases/api-keys/issue-api-key';

/** Every response body of the service. None ever carries a key's secret or its hash. */

export const accountView = (account: PlatformAccount): PlatformAccountBody => ({
  id: account.id,
  name: account.name,
  webhookUrl: account.webhookUrl,
  capabilities: account.capabilities,
  serviceArea: account.serviceArea,
  rateLimit: { requestsPerMinute: account.rateLimit.requestsPerMinute },
  simulator: { ...account.simulator },
  eventTypes: [...account.eventTypes],
  createdAt: account.createdAt.toISOString(),
  updatedAt: account.updatedAt.toISOString(),
});

export function apiKeyView(
  key: { keyId: string; createdAt: Date; expiresAt: Date | null; revokedAt: Date | null },
  now: Date,
): PlatformApiKey {
  return {
    keyId: key.keyId,
    createdAt: key.createdAt.toISOString(),
    expiresAt: key.expiresAt?.toISOString() ?? null,
    revokedAt: key.revokedAt?.toISOString() ?? null,
    live: isLiveKey(key, now),
  };
}

export const mintedKeyView = (key: MintedKey): PlatformApiKeyMinted => ({
  keyId: key.keyId,
  apiKey: key.apiKey,
  createdAt: key.createdAt.toISOString(),
  expiresAt: key.expiresAt?.toISOString() ?? null,
});

export const webhookSecretView = (rotated: { webhookSecret: string; rotatedAt: Date }): WebhookSecretRotated => ({
  webhookSecret: rotated.webhookSecret,
  rotatedAt: rotated.rotatedAt.toISOString(),
});

export const statusView = (delivery: Pick<Delivery, 'status' | 'statusEventTimeUtc'>): ProviderStatusResponse => ({
  status: delivery.status,
  eventTimeUtc: delivery.statusEventTimeUtc.toISOString(),
});

/** Tracking: what we know, null when unknown (never invented); eventTimeUtc when we observed it. */
export const trackingView = (delivery: Pick<Delivery, 'tracking'>): ProviderTrackingResponse => {
  const t = delivery.tracking;
  return {
    driverName: t.driverName,
    driverPhone: t.driverPhone,
    driverLat: t.driverLat,
    driverLng: t.driverLng,
    trackingUrl: t.trackingUrl,
    estimatedDeliveryAtUtc: t.estimatedDeliveryAtUtc?.toISOString() ?? null,
    eventTimeUtc: t.eventTimeUtc.toISOString(),
  };
};
