import type { RouterContext } from '@koa/router';
import { tenantOrderingApiDocument } from '@marketplace/contracts';
import { validationError } from '@marketplace/errors';
import { pathId, queryId, requestBody, type RequestState, type RouteTable } from '@marketplace/http';
import { identityOf } from '@marketplace/identity';
import { toMinorUnits } from '@marketplace/money';
import type { ServiceFeeRule } from '../domain/pricing';
import { tenantScope, type TenantScope } from '../domain/tenant-scope';
import type { OrderingContext } from '../usecases/context';
import { actAsTenant, type TenantAction } from '../usecases/orders/act-as-tenant';
import { listOrders } from '../usecases/orders/list-orders';
import { readOrderAsTenant } from '../usecases/orders/read-order-as-tenant';
import { recordPaymentByTenant } from '../usecases/payments/record-payment-by-tenant';
import { createPromotion } from '../usecases/promotions/create-promotion';
import { deletePromotion } from '../usecases/promotions/delete-promotion';
import { getPromotion } from '../usecases/promotions/get-promotion';
import { listPromotions } from '../usecases/promotions/list-promotions';
import { updatePromotion } from '../usecases/promotions/update-promotion';
import { getServiceFee } from '../usecases/service-fee/get-service-fee';
import { putServiceFee } from '../usecases/service-fee/put-service-fee';
import { deleteZone } from '../usecases/zones/delete-zone';
import { getZone } from '../usecases/zones/get-zone';
import { listZones } from '../usecases/zones/list-zones';
import { saveZone } from '../usecases/zones/save-zone';
import { validateManualPaymentRecord, validatePromotion, validateServiceFeeInput, validateZone } from './schemas';
import { tenantOrderView } from './views/orders';
import { promotionView } from './views/promotions';
import { serviceFeeView } from './views/service-fee';
import { zoneView } from './views/zones';

/** Tenant API paths this service owns (the gateway forwards each prefix here). */
export const TENANT_PREFIX = '/api/tenant/v1';
type Ctx = RouterContext<RequestState>;
const tenantOf = (c: Ctx) => tenantScope(identityOf(c, 'tenant'));

/**
 * Tenant API: delivery zones, promotions and the service fee, and the tenant's orders with their
 * actions (accept, reject, complete, cancel, record payment).
 */
export function registerTenantRoutes(routes: RouteTable, ctx: OrderingContext): void {
  registerZoneRoutes(routes, ctx);
  registerPromotionRoutes(routes, ctx);
  registerServiceFeeRoutes(routes, ctx);
  registerOrderRoutes(routes, ctx);
}

function registerZoneRoutes(routes: RouteTable, ctx: OrderingContext): void {
  const zonesPath = `${TENANT_PREFIX}/delivery-zones`;
  routes.post(zonesPath, 'tenant', async (c) => {
    const tenant = tenantOf(c);
    c.status = 201;
    c.body = zoneView(await saveZone(ctx, tenant, undefined, validateZone(requestBody(c))), tenant);
  });
  routes.get(zonesPath, 'tenant', async (c) => {
    const tenant = tenantOf(c);
    c.body = (await listZones(ctx, tenant, queryId(c.query, 'branchId'))).map((zone) => zoneView(zone, tenant));
  });
  routes.get(`${zonesPath}/:id`, 'tenant', async (c) => {
    const tenant = tenantOf(c);
    c.body = zoneView(await getZone(ctx, tenant, pathId(c.params.id)), tenant);
  });
  routes.put(`${zonesPath}/:id`, 'tenant', async (c) => {
    const tenant = tenantOf(c);
    const id = pathId(c.params.id);
    c.body = zoneView(await saveZone(ctx, tenant, id, validateZone(requestBody(c))), tenant);
  });
  routes.delete(`${zonesPath}/:id`, 'tenant', async (c) => {
    await deleteZone(ctx, tenantOf(c), pathId(c.params.id));
    c.status = 204;
  });
}

function registerPromotionRoutes(routes: RouteTable, ctx: OrderingContext): void {
  const promotionsPath = `${TENANT_PREFIX}/promotions`;
  routes.post(promotionsPath, 'tenant', async (c) => {
    const tenant = tenantOf(c);
    c.status = 201;
    c.body = promotionView(await createPromotion(ctx, tenant, validatePromotion(requestBody(c))), tenant);
  });
  routes.get(promotionsPath, 'tenant', async (c) => {
    const tenant = tenantOf(c);
    c.body = (await listPromotions(ctx, tenant)).map((p) => promotionView(p, tenant));
  });
  routes.get(`${promotionsPath}/:id`, 'tenant', async (c) => {
    const tenant = tenantOf(c);
    c.body = promotionView(await getPromotion(ctx, tenant, pathId(c.params.id)), tenant);
  });
  routes.put(`${promotionsPath}/:id`, 'tenant', async (c) => {
    const tenant = tenantOf(c);
    const id = pathId(c.params.id);
    c.body = promotionView(await updatePromotion(ctx, tenant, id, validatePromotion(requestBody(c))), tenant);
  });
  routes.delete(`${promotionsPath}/:id`, 'tenant', async (c) => {
    await deletePromotion(ctx, tenantOf(c), pathId(c.params.id));
    c.status = 204;
  });
}

function registerServiceFeeRoutes(routes: RouteTable, ctx: OrderingContext): void {
  routes.get(`${TENANT_PREFIX}/service-fee`, 'tenant', async (c) => {
    const tenant = tenantOf(c);
    c.body = serviceFeeView(await getServiceFee(ctx, tenant), tenant);
  });
  routes.put(`${TENANT_PREFIX}/service-fee`, 'tenant', async (c) => {
    const tenant = tenantOf(c);
    const fee = serviceFeeOf(validateServiceFeeInput(requestBody(c)), tenant);
    c.body = serviceFeeView(await putServiceFee(ctx, tenant, fee), tenant);
  });
}

/** The service fee a tenant sends, in minor units; 400 for amounts or percents with too many decimals. */
function serviceFeeOf(input: { fixed: number; percent: number }, tenant: TenantScope): ServiceFeeRule {
  const fixedMinor = toMinorUnits(input.fixed, tenant.decimals);
  const errors: Record<string, string[]> = {};
  if (fixedMinor === undefined)
    errors.fixed = [`must be a non-negative amount with at most ${tenant.decimals} decimals`];
  if (Number(input.percent.toFixed(2)) !== input.percent) errors.percent = ['must have at most 2 decimals'];
  if (Object.keys(errors).length > 0)
    throw validationError('request.invalid', 'The service fee is invalid; see errors.', errors);
  return { fixedMinor: fixedMinor!, percent: input.percent };
}

/** The tenant's orders with their actions. */
function registerOrderRoutes(routes: RouteTable, ctx: OrderingContext): void {
  const ordersPath = `${TENANT_PREFIX}/orders`;
  routes.get(ordersPath, 'tenant', async (c) => {
    const status = c.query.status === undefined ? undefined : Number(c.query.status);
    const limit = c.query.limit === undefined ? 50 : Number(c.query.limit);
    const errors: Record<string, string[]> = {};
    if (status !== undefined && !Number.isInteger(status)) errors.status = ['must be an order status value'];
    if (!Number.isInteger(limit) || limit < 1 || limit > 200) errors.limit = ['must be an integer from 1 to 200'];
    if (Object.keys(errors).length > 0)
      throw validationError('request.invalid', 'The query is invalid; see errors.', errors);
    c.body = (await listOrders(ctx, tenantOf(c), { status, limit })).map(tenantOrderView);
  });
  // Before `${ordersPath}/:id`, which would otherwise take `openapi.json` for an id (404).
  routes.get(`${TENANT_PREFIX}/orders/openapi.json`, 'tenant', (c) => {
    c.body = tenantOrderingApiDocument;
  });
  routes.get(`${ordersPath}/:id`, 'tenant', async (c) => {
    c.body = tenantOrderView(await readOrderAsTenant(ctx, tenantOf(c), pathId(c.params.id)));
  });
  for (const action of ['accept', 'reject', 'complete', 'cancel'] as TenantAction[]) {
    routes.post(`${ordersPath}/:id/${action}`, 'tenant', async (c) => {
      const tenant = tenantOf(c);
      c.body = tenantOrderView(await actAsTenant(ctx, tenant, pathId(c.params.id), action));
    });
  }
  routes.post(`${ordersPath}/:id/payment`, 'tenant', async (c) => {
    const tenant = tenantOf(c);
    const orderId = pathId(c.params.id);
    const { reason } = validateManualPaymentRecord(requestBody(c) ?? {});
    c.body = tenantOrderView(await recordPaymentByTenant(ctx, tenant, orderId, reason));
  });
}
