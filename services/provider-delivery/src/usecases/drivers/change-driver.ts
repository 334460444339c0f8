import type { Driver, DriverChanges } from '../../domain/driver';
import { driverNotFound, requireValidShift } from '../../domain/errors';
import type { ProviderContext } from '../context';

/** An administrator's change of the account's driver; 404 for any other. */
export async function changeDriver(
  ctx: ProviderContext,
  accountId: string,
  driverId: string,
  changes: DriverChanges,
): Promise<Driver> {
  requireValidShift(changes.shift);
  const driver = await ctx.store.drivers.update({ accountId }, driverId, changes, ctx.now());
  if (!driver) throw driverNotFound();
  return driver;
}
