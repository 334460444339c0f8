import {
  hashCourierSecret,
  mintCourierToken,
  type Driver,
  type DriverPosition,
  type Shift,
  type Vehicle,
} from '../../domain/driver';
import { requireValidShift } from '../../domain/errors';
import { getAccount } from '../accounts/get-account';
import type { ProviderContext } from '../context';

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
  requireValidShift(input.shift);
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
