import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { base64Key } from '@marketplace/config';

/**
 * The webhook signing secret travels from the gateway (which mints it) to the webhook sender (which
 * signs with it) inside the installation events on Kafka, never in clear: AES-256-GCM under a key
 * only those two services hold, bound to the installation (associated data), so a sealed secret
 * copied onto another installation's event does not open.
 */
export const webhookSecretTransportKeySetting = () => base64Key('WEBHOOK_SECRET_TRANSPORT_KEY', { bytes: 32 });

const VERSION = 'v1';
const installationContext = (installationId: string) => `installation:${installationId}:webhook-secret`;

export function sealWebhookSecret(key: Buffer, installationId: string, secret: string): string {
  return sealForTransport(key, installationContext(installationId), secret);
}

/** The secret, or throws when the value was not sealed with this key for this installation. */
export function openWebhookSecret(key: Buffer, installationId: string, sealed: string): string {
  return openFromTransport(key, installationContext(installationId), sealed);
}

/**
 * Where provider-delivery binds what it hands the webhook sender on `provider-events`: the
 * account's signing secret, and a delivery's callback URL (its path token is a secret too).
 */
export const TRANSPORT_CONTEXTS = {
  platformAccountSecret: (accountId: string) => `platform-account:${accountId}:webhook-secret`,
  deliveryCallbackUrl: (providerDeliveryId: string) => `provider-delivery:${providerDeliveryId}:callback-url`,
} as const;

/**
 * Seals a secret for the trip to the webhook sender under WEBHOOK_SECRET_TRANSPORT_KEY, bound to
 * `context` (associated data): a sealed value copied onto another owner's event does not open.
 */
export function sealForTransport(key: Buffer, context: string, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context));
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [
    VERSION,
    iv.toString('base64url'),
    ciphertext.toString('base64url'),
    cipher.getAuthTag().toString('base64url'),
  ].join('.');
}

/** The secret, or throws when the value was not sealed with this key for this context. */
export function openFromTransport(key: Buffer, context: string, sealed: string): string {
  const [version, iv, ciphertext, tag] = sealed.split('.');
  if (version !== VERSION || !iv || ciphertext === undefined || !tag) throw new Error('not a sealed webhook secret');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(context));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
}
