import { notFound, validationError } from '@marketplace/errors';
import {
  hashCourierSecret,
  mintCourierToken,
  shiftErrors,
  type Driver,
  type DriverChanges,
  type DriverPosition,
  type Shift,
  type Vehicle,
} from '../domain/driver';
import type { ProviderContext } from './context';
import { getAccount } from './platform-accounts';

/** A driver as an administrator registers them (the shift and position already checked by the route's schema). */
export interface DriverInput {
  name: string;
  phone: string;
  vehicle: Vehicle;
  shift?: Shift | null;
  online?: boolean;
  position?: { lat: number; lng: number } | null;
  simulated?: boolean;
}

const driverNotFound = () => notFound('driver.not_found', 'No such driver.');

function checkShift(shift: Shift | null | undefined): void {
  const errors = shiftErrors(shift);
  if (errors) throw validationError('request.invalid', 'The request is invalid.', errors);
}

/**
 * The driver registry of an account (administrator API): register a driver with their courier
 * credential (shown once), read, change, and replace the credential. The account must exist
 * (404 otherwise, as for a driver of another account).
 */
export async function registerDriver(
  ctx: ProviderContext,
  accountId: string,
  input: DriverInput,
): Promise<{ driver: Driver; courierToken: string }> {
  checkShift(input.shift);
  await getAccount(ctx, accountId);
  const now = ctx.now();
  const position: DriverPosition | null = input.position ? { ...input.position, at: now } : null;
  const driver: Driver = {
    id: ctx.newId(),
    accountId,
    name: input.name,
    phone: input.phone,
    vehicle: input.vehicle,
    shift: input.shift ?? null,
    online: input.online ?? false,
    position,
    activeDeliveryId: null,
    offer: null,
    simulated: input.simulated ?? false,
    createdAt: now,
    updatedAt: now,
  };
  const token = mintCourierToken();
  await ctx.store.drivers.insert(driver, token.tokenId, hashCourierSecret(token.secret, ctx.keyHashSecret));
  ctx.logger.info({ accountId, driverId: driver.id, simulated: driver.simulated }, 'driver registered');
  return { driver, courierToken: token.token };
}

export async function listDrivers(ctx: ProviderContext, accountId: string, limit: number): Promise<Driver[]> {
  await getAccount(ctx, accountId);
  return ctx.store.drivers.list({ accountId }, limit);
}

export async function getDriver(ctx: ProviderContext, accountId: string, driverId: string): Promise<Driver> {
  const driver = await ctx.store.drivers.find({ accountId }, driverId);
  if (!driver) throw driverNotFound();
  return driver;
}

export async function changeDriver(
  ctx: ProviderContext,
  accountId: string,
  driverId: string,
  changes: DriverChanges,
): Promise<Driver> {
  checkShift(changes.shift);
  const driver = await ctx.store.drivers.update({ accountId }, driverId, changes, ctx.now());
  if (!driver) throw driverNotFound();
  return driver;
}

/** A new courier credential for the driver (a lost phone): the previous one stops at once. */
export async function replaceCourierToken(
  ctx: ProviderContext,
  accountId: string,
  driverId: string,
): Promise<{ courierToken: string }> {
  const token = mintCourierToken();
  const hash = hashCourierSecret(token.secret, ctx.keyHashSecret);
  if (!(await ctx.store.drivers.replaceToken({ accountId }, driverId, token.tokenId, hash, ctx.now())))
    throw driverNotFound();
  ctx.logger.info({ accountId, driverId }, 'courier token replaced');
  return { courierToken: token.token };
}
