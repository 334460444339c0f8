import type Router from '@koa/router';
import { identityOf } from '@marketplace/identity';
import { pathId, type RequestState } from '@marketplace/http';
import type Koa from 'koa';
import { tenantScope } from '../usecases/context';
import type { MenuReads } from '../usecases/menu-reads';

const PREFIX = '/api/partner/v1/catalog';

/**
 * Partner API endpoints 1 to 3 (the gateway checked the key and the scope Catalog.Read). Bodies
 * come serialized from the menu cache and are sent as they are.
 */
export function registerPartnerRoutes(router: Router<RequestState>, reads: MenuReads): void {
  const send = (c: Koa.Context, body: string) => {
    c.type = 'application/json';
    c.set('Cache-Control', 'no-store'); // each read must see the latest acknowledged change
    c.body = body;
  };
  router.get(`${PREFIX}/branches`, async (c) => {
    send(c as unknown as Koa.Context, await reads.branches(tenantScope(identityOf(c, 'partner'))));
  });
  router.get(`${PREFIX}/branches/:branchId/products`, async (c) => {
    const tenant = tenantScope(identityOf(c, 'partner'));
    send(c as unknown as Koa.Context, await reads.productList(tenant, pathId(c.params.branchId), c.query.language));
  });
  router.get(`${PREFIX}/branches/:branchId/products/:productId`, async (c) => {
    const tenant = tenantScope(identityOf(c, 'partner'));
    send(c as unknown as Koa.Context, await reads.productDetail(tenant, pathId(c.params.branchId), pathId(c.params.productId), c.query.language));
  });
}
