import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { DRIVER_VEHICLES } from '@marketplace/contracts';
import type { DispatchDriver } from './dispatch';
import type { Point } from './eta';

/**
 * A courier of a platform account's operating area: who they are (only what the contract's
 * events carry: a name and a phone), their vehicle, their shift, whether they are online, where
 * they are, and what they hold (an offer, a delivery). Driver personal data is this much and no
 * more; logs never carry the name or the phone (the service's logger redacts them).
 */
export type Vehicle = (typeof DRIVER_VEHICLES)[number];

export interface Shift {
  startsAtUtc: Date;
  endsAtUtc: Date;
}

export interface DriverPosition extends Point {
  at: Date;
}

export interface HeldOffer {
  providerDeliveryId: string;
  expiresAt: Date;
}

export interface Driver {
  id: string;
  accountId: string;
  name: string;
  phone: string;
  vehicle: Vehicle;
  /** Null: always on shift. */
  shift: Shift | null;
  online: boolean;
  position: DriverPosition | null;
  /** The delivery they carry (from accepting it to its end); null when free. */
  activeDeliveryId: string | null;
  /** The offer they hold; null when none (an expired one counts as none). */
  offer: HeldOffer | null;
  /** Created by the courier simulator. */
  simulated: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** Fields an administrator (or the driver, for `online`) changes. */
export type DriverChanges = Partial<Pick<Driver, 'name' | 'phone' | 'vehicle' | 'shift' | 'online'>>;

/** A shift must end after it starts (else the driver would never be offered anything): the field errors, or none. */
export function shiftErrors(shift: Shift | null | undefined): Record<string, string[]> | undefined {
  if (!shift || shift.endsAtUtc > shift.startsAtUtc) return undefined;
  return { 'shift.endsAtUtc': ['must be after shift.startsAtUtc'] };
}

export const onShift = (shift: Shift | null, now: Date): boolean =>
  shift === null || (shift.startsAtUtc <= now && now < shift.endsAtUtc);

const holdsOffer = (driver: Driver, now: Date): boolean => driver.offer !== null && driver.offer.expiresAt > now;

/** The driver as dispatch sees them. A driver without a known position cannot be placed: left out. */
export function dispatchDriverOf(driver: Driver, now: Date): DispatchDriver | undefined {
  if (driver.position === null) return undefined;
  return {
    id: driver.id,
    position: { lat: driver.position.lat, lng: driver.position.lng },
    online: driver.online,
    onShift: onShift(driver.shift, now),
    busy: driver.activeDeliveryId !== null || holdsOffer(driver, now),
  };
}

/**
 * Courier credentials: `<tokenId>.<secret>`, sent as `Authorization: Bearer <token>` by the driver
 * app. The id (`pdd_` and 22 base64url characters) finds the driver; the secret (256 bits) is shown
 * once and stored only as HMAC-SHA256 under PROVIDER_KEY_HASH_SECRET, compared in constant time.
 * One token per driver: minting a new one ends the old at once (a lost phone).
 */
export const COURIER_TOKEN_ID_PATTERN = /^pdd_[A-Za-z0-9_-]{22}$/;
const SECRET_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export interface CourierTokenParts {
  tokenId: string;
  secret: string;
}

export function mintCourierToken(): CourierTokenParts & { token: string } {
  const tokenId = `pdd_${randomBytes(16).toString('base64url')}`;
  const secret = randomBytes(32).toString('base64url');
  return { tokenId, secret, token: `${tokenId}.${secret}` };
}

export function parseBearerCourierToken(header: string | undefined): CourierTokenParts | undefined {
  const match = header ? /^Bearer ([^.\s]+)\.(\S+)$/i.exec(header) : null;
  if (!match) return undefined;
  const [, tokenId, secret] = match as unknown as [string, string, string];
  return COURIER_TOKEN_ID_PATTERN.test(tokenId) && SECRET_PATTERN.test(secret) ? { tokenId, secret } : undefined;
}

export const hashCourierSecret = (secret: string, hashKey: Buffer): string =>
  createHmac('sha256', hashKey).update(`courier:${secret}`).digest('base64url');

export function courierSecretMatches(secret: string, storedHash: string, hashKey: Buffer): boolean {
  const presented = Buffer.from(hashCourierSecret(secret, hashKey));
  const stored = Buffer.from(storedHash);
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}
