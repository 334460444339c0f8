import type { Driver } from '../../domain/driver';
import type { ProviderContext } from '../context';

/** Candidates read per decision: the nearest among this many free drivers of the account. */
const CANDIDATES = 2_000;

/** The free drivers of an account that a dispatch decision chooses from. */
export const listFreeDrivers = (ctx: ProviderContext, accountId: string): Promise<Driver[]> =>
  ctx.store.drivers.listFree({ accountId }, CANDIDATES);
