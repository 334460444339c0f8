import { identityOf } from '@marketplace/identity';
import { pathId, type RouteTable } from '@marketplace/http';
import type Koa from 'koa';
import { acceptsGzip, etagMatches, type RenderedBody } from '../domain/rendered-body';
import type { CatalogContext } from '../usecases/context';
import { readBranches } from '../usecases/read-branches';
import { readProductDetail } from '../usecases/read-product-detail';
import { readProductList } from '../usecases/read-product-list';
import { tenantScope } from './tenant-scope';

const PREFIX = '/api/partner/v1/catalog';

/**
 * Partner API endpoints 1 to 3 (the gateway checked the key and the scope Catalog.Read). Bodies
 * come serialized (and gzipped) from the menu cache and are sent as they are, with an ETag.
 */
export function registerPartnerRoutes(routes: RouteTable, ctx: CatalogContext): void {
  const send = (c: Koa.Context, body: RenderedBody) => {
    // Partners may revalidate (If-None-Match) but not reuse without asking: a change must show at once.
    c.set('Cache-Control', 'no-cache');
    c.set('ETag', body.etag);
    c.set('Vary', 'Accept-Encoding');
    if (etagMatches(c.get('if-none-match'), body.etag)) {
      c.status = 304;
      return;
    }
    c.type = 'application/json; charset=utf-8';
    if (body.gzip && acceptsGzip(c.get('accept-encoding'))) {
      c.set('Content-Encoding', 'gzip');
      c.body = body.gzip;
    } else {
      c.body = body.json;
    }
  };
  routes.get(`${PREFIX}/branches`, 'partner', async (c) => {
    send(c, await readBranches(ctx, tenantScope(identityOf(c, 'partner'))));
  });
  routes.get(`${PREFIX}/branches/:branchId/products`, 'partner', async (c) => {
    const tenant = tenantScope(identityOf(c, 'partner'));
    send(c, await readProductList(ctx, tenant, pathId(c.params.branchId), c.query.language));
  });
  routes.get(`${PREFIX}/branches/:branchId/products/:productId`, 'partner', async (c) => {
    const tenant = tenantScope(identityOf(c, 'partner'));
    send(
      c,
      await readProductDetail(ctx, tenant, pathId(c.params.branchId), pathId(c.params.productId), c.query.language),
    );
  });
}
