import { randomBytes } from 'node:crypto';
import {
  openFromTransport,
  openWebhookSecret,
  sealForTransport,
  sealWebhookSecret,
  TRANSPORT_CONTEXTS,
} from './webhook-secret-transport';

const key = randomBytes(32);
const secret = 'whsec_abcdefghijklmnopqrstuvwxyz012345';

it('opens what it sealed, and never shows the secret in the sealed form', () => {
  const sealed = sealWebhookSecret(key, 'inst-1', secret);
  expect(sealed).not.toContain(secret);
  expect(sealed).not.toContain('whsec_');
  expect(openWebhookSecret(key, 'inst-1', sealed)).toBe(secret);
  expect(sealWebhookSecret(key, 'inst-1', secret)).not.toBe(sealed); // a fresh nonce each time
});

it('refuses another installation, another key, or a changed value', () => {
  const sealed = sealWebhookSecret(key, 'inst-1', secret);
  expect(() => openWebhookSecret(key, 'inst-2', sealed)).toThrow();
  expect(() => openWebhookSecret(randomBytes(32), 'inst-1', sealed)).toThrow();
  const [v, iv, ct, tag] = sealed.split('.');
  const flipped = Buffer.from(ct!, 'base64url');
  flipped[0] = flipped[0]! ^ 1;
  expect(() => openWebhookSecret(key, 'inst-1', [v, iv, flipped.toString('base64url'), tag].join('.'))).toThrow();
  expect(() => openWebhookSecret(key, 'inst-1', 'garbage')).toThrow();
});

it('binds a transported secret to its context: a callback URL sealed for one delivery does not open for another', () => {
  const url = 'https://platform.example/callbacks/tok_secret';
  const sealed = sealForTransport(key, TRANSPORT_CONTEXTS.deliveryCallbackUrl('d-1'), url);
  expect(sealed).not.toContain('tok_secret');
  expect(openFromTransport(key, TRANSPORT_CONTEXTS.deliveryCallbackUrl('d-1'), sealed)).toBe(url);
  expect(() => openFromTransport(key, TRANSPORT_CONTEXTS.deliveryCallbackUrl('d-2'), sealed)).toThrow();
  expect(() => openFromTransport(key, TRANSPORT_CONTEXTS.platformAccountSecret('d-1'), sealed)).toThrow();
});
