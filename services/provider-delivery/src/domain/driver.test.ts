import { randomBytes } from 'node:crypto';
import {
  courierSecretMatches,
  dispatchDriverOf,
  hashCourierSecret,
  mintCourierToken,
  onShift,
  parseBearerCourierToken,
  shiftErrors,
  type Driver,
} from './driver';

const at = (iso: string) => new Date(iso);
const shift = { startsAtUtc: at('2030-01-01T10:00:00Z'), endsAtUtc: at('2030-01-01T18:00:00Z') };

it('refuses a shift that does not end after it starts', () => {
  expect(shiftErrors(shift)).toBeUndefined();
  expect(shiftErrors(null)).toBeUndefined();
  expect(shiftErrors({ startsAtUtc: shift.endsAtUtc, endsAtUtc: shift.endsAtUtc })).toEqual({
    'shift.endsAtUtc': ['must be after shift.startsAtUtc'],
  });
});

it('is on shift from its start until (not at) its end; always without one', () => {
  expect(onShift(null, at('2030-01-01T03:00:00Z'))).toBe(true);
  expect(onShift(shift, at('2030-01-01T10:00:00Z'))).toBe(true);
  expect(onShift(shift, at('2030-01-01T18:00:00Z'))).toBe(false);
});

it('counts a driver holding a live offer or carrying a delivery as busy, and leaves out one with no position', () => {
  const driver: Driver = {
    id: 'd',
    accountId: 'a',
    name: 'Dana',
    phone: '+49 170 1',
    vehicle: 'bicycle',
    shift: null,
    online: true,
    position: { lat: 52.5, lng: 13.4, at: at('2030-01-01T10:00:00Z') },
    activeDeliveryId: null,
    offer: { providerDeliveryId: 'p', expiresAt: at('2030-01-01T10:00:45Z') },
    simulated: false,
    createdAt: at('2030-01-01T00:00:00Z'),
    updatedAt: at('2030-01-01T00:00:00Z'),
  };
  expect(dispatchDriverOf(driver, at('2030-01-01T10:00:30Z'))?.busy).toBe(true);
  expect(dispatchDriverOf(driver, at('2030-01-01T10:00:45Z'))?.busy).toBe(false); // the offer ran out
  expect(dispatchDriverOf({ ...driver, offer: null, activeDeliveryId: 'q' }, at('2030-01-01T10:00:00Z'))?.busy).toBe(
    true,
  );
  expect(dispatchDriverOf({ ...driver, position: null }, at('2030-01-01T10:00:00Z'))).toBeUndefined();
});

it('mints courier tokens that parse back and match only their own hash', () => {
  const key = randomBytes(32);
  const token = mintCourierToken();
  expect(token.token).toMatch(/^pdd_[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/);
  const parsed = parseBearerCourierToken(`Bearer ${token.token}`)!;
  expect(parsed).toEqual({ tokenId: token.tokenId, secret: token.secret });
  expect(courierSecretMatches(parsed.secret, hashCourierSecret(token.secret, key), key)).toBe(true);
  expect(courierSecretMatches(mintCourierToken().secret, hashCourierSecret(token.secret, key), key)).toBe(false);
  for (const header of [undefined, 'Bearer pdk_x.y', `Basic ${token.token}`, `Bearer ${token.tokenId}`])
    expect(parseBearerCourierToken(header)).toBeUndefined();
});
