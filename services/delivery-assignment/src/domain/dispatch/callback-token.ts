import { createHash } from 'node:crypto';

/** The stored form of a callback URL's token: its SHA-256, so a database read gives no working URL. */
export const callbackTokenHash = (token: string): string => createHash('sha256').update(token).digest('base64url');

/** A token as this service mints them (32 random bytes, base64url): anything else is unknown without a lookup. */
export const isCallbackTokenShaped = (token: string): boolean => /^[A-Za-z0-9_-]{43}$/.test(token);

/** Where providers POST a delivery's events (this service's public route): the token is the last segment. */
export const CALLBACK_PATH = '/api/provider-callbacks/v1';
