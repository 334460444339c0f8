import type { Driver } from '../../domain/driver';
import type { ProviderContext } from '../context';
import { readCourierState, type CourierState } from './read-courier-state';

/** The driver goes online or offline; the answer is what the app shows then. */
export async function setAvailability(ctx: ProviderContext, driver: Driver, online: boolean): Promise<CourierState> {
  const changed = await ctx.store.drivers.update({ accountId: driver.accountId }, driver.id, { online }, ctx.now());
  return readCourierState(ctx, changed ?? driver);
}
