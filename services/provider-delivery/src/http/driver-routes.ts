import { requestSchemas, type DriverInput, type DriverPatch } from '@marketplace/contracts';
import { bodyValidator, pathId, requestBody, type RouteTable } from '@marketplace/http';
import type { DriverChanges } from '../domain/driver';
import type { ProviderContext } from '../usecases/context';
import { changeDriver } from '../usecases/drivers/change-driver';
import { getDriver } from '../usecases/drivers/get-driver';
import { listDrivers } from '../usecases/drivers/list-drivers';
import { registerDriver } from '../usecases/drivers/register-driver';
import { replaceCourierToken } from '../usecases/drivers/replace-courier-token';
import { driverView } from './courier-views';

const validateDriver = bodyValidator<DriverInput>(requestSchemas.DriverInput);
const validateDriverPatch = bodyValidator<DriverPatch>(requestSchemas.DriverPatch);
const P = '/admin/v1/platform-accounts/:accountId/drivers';
const LIST_LIMIT = 1_000;

const shiftOf = (shift: DriverInput['shift']) =>
  shift ? { startsAtUtc: new Date(shift.startsAtUtc), endsAtUtc: new Date(shift.endsAtUtc) } : null;

/** The drivers of an account (administrator token): register, read, change, replace a courier token. */
export function registerDriverRoutes(routes: RouteTable, ctx: ProviderContext): void {
  routes.post(P, 'admin', async (c) => {
    const { shift, ...input } = validateDriver(requestBody(c));
    const registered = await registerDriver(ctx, pathId(c.params.accountId), { ...input, shift: shiftOf(shift) });
    c.status = 201;
    c.body = { driver: driverView(registered.driver), courierToken: registered.courierToken };
  });
  routes.get(P, 'admin', async (c) => {
    c.body = (await listDrivers(ctx, pathId(c.params.accountId), LIST_LIMIT)).map(driverView);
  });
  routes.get(`${P}/:driverId`, 'admin', async (c) => {
    c.body = driverView(await getDriver(ctx, pathId(c.params.accountId), pathId(c.params.driverId)));
  });
  routes.patch(`${P}/:driverId`, 'admin', async (c) => {
    const { shift, ...rest } = validateDriverPatch(requestBody(c));
    const changes: DriverChanges = { ...rest, ...(shift !== undefined ? { shift: shiftOf(shift) } : {}) };
    c.body = driverView(await changeDriver(ctx, pathId(c.params.accountId), pathId(c.params.driverId), changes));
  });
  routes.post(`${P}/:driverId/token`, 'admin', async (c) => {
    c.body = await replaceCourierToken(ctx, pathId(c.params.accountId), pathId(c.params.driverId));
  });
}
