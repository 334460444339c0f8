import type { Driver } from '../../domain/driver';
import { driverNotFound } from '../../domain/errors';
import type { ProviderContext } from '../context';

/** The account's driver; 404 for any other. */
export async function getDriver(ctx: ProviderContext, accountId: string, driverId: string): Promise<Driver> {
  const driver = await ctx.store.drivers.find({ accountId }, driverId);
  if (!driver) throw driverNotFound();
  return driver;
}
