import { str } from '@marketplace/config';

/** The gateway's Ed25519 public key (base64 SPKI DER), for every service that serves gateway-routed requests. */
export const identityPublicKeySetting = () =>
  str('INTERNAL_IDENTITY_PUBLIC_KEY', { pattern: /^[A-Za-z0-9+/]+={0,2}$/ });
