import type { RouterContext } from '@koa/router';
import { identityOf } from '@marketplace/identity';
import { pathId, queryId, requestBody, type RequestState, type RouteTable } from '@marketplace/http';
import { getAvailability, patchAvailability } from '../usecases/availability';
import { tenantScope, type CatalogContext, type TenantScope } from '../usecases/context';
import * as manage from '../usecases/manage-catalog';
import type { CatalogResource } from '../domain/model';
import { findResource, listResources, type ResourceType } from '../usecases/resources';
import { tenantCatalogApiDocument } from '@marketplace/contracts';
import * as schemas from './schemas';
import {
  availabilityView,
  categoryView,
  modifierGroupView,
  productView,
  taxCategoryView,
  tenantBranchView,
} from './views/tenant';

export const TENANT_CATALOG_PREFIX = '/api/tenant/v1/catalog';

type Ctx = RouterContext<RequestState>;

const tenantOf = (c: Ctx) => tenantScope(identityOf(c, 'tenant'));

interface CrudRoutes<D extends { _id: string }, I> {
  path: string;
  type: ResourceType<D & CatalogResource>;
  validate(body: unknown): I;
  view(doc: D, tenant: TenantScope): unknown;
  save(ctx: CatalogContext, tenant: TenantScope, id: string | undefined, input: I): Promise<D>;
  remove(ctx: CatalogContext, tenant: TenantScope, id: string): Promise<void>;
}

/** Tenant API: the catalog's management, one set of five routes per resource, plus availability. */
export function registerTenantRoutes(routes: RouteTable, ctx: CatalogContext): void {
  const crud = <D extends { _id: string }, I>(r: CrudRoutes<D, I>) => {
    const base = `${TENANT_CATALOG_PREFIX}/${r.path}`;
    routes.post(base, 'tenant', async (c) => {
      const tenant = tenantOf(c);
      c.status = 201;
      c.body = r.view(await r.save(ctx, tenant, undefined, r.validate(requestBody(c))), tenant);
    });
    routes.get(base, 'tenant', async (c) => {
      const tenant = tenantOf(c);
      const categoryId = r.path === 'products' ? queryId(c.query, 'categoryId') : undefined;
      const docs =
        categoryId !== undefined
          ? await manage.listProductsInCategory(ctx, tenant, categoryId)
          : await listResources(ctx, r.type, tenant);
      c.body = docs.map((doc) => r.view(doc as unknown as D, tenant));
    });
    routes.get(`${base}/:id`, 'tenant', async (c) => {
      const tenant = tenantOf(c);
      c.body = r.view(await findResource(ctx, r.type, tenant, pathId(c.params.id)), tenant);
    });
    routes.put(`${base}/:id`, 'tenant', async (c) => {
      const tenant = tenantOf(c);
      const id = pathId(c.params.id);
      c.body = r.view(await r.save(ctx, tenant, id, r.validate(requestBody(c))), tenant);
    });
    routes.delete(`${base}/:id`, 'tenant', async (c) => {
      await r.remove(ctx, tenantOf(c), pathId(c.params.id));
      c.status = 204;
    });
  };

  // `as never`: ResourceType is invariant through the driver's bulkWrite types, so tsc needs the casts;
  // ESLint's program resolves those driver types differently and would call them unnecessary.
  /* eslint-disable @typescript-eslint/no-unnecessary-type-assertion */
  crud({
    path: 'tax-categories',
    type: manage.TAX_CATEGORIES as never,
    validate: schemas.validateTaxCategory,
    view: taxCategoryView,
    save: manage.saveTaxCategory,
    remove: manage.deleteTaxCategory,
  });
  crud({
    path: 'branches',
    type: manage.BRANCHES as never,
    validate: schemas.validateBranch,
    view: tenantBranchView,
    save: manage.saveBranch,
    remove: manage.deleteBranch,
  });
  crud({
    path: 'categories',
    type: manage.CATEGORIES as never,
    validate: schemas.validateCategory,
    view: categoryView,
    save: manage.saveCategory,
    remove: manage.deleteCategory,
  });
  crud({
    path: 'modifier-groups',
    type: manage.MODIFIER_GROUPS as never,
    validate: schemas.validateModifierGroup,
    view: (doc, tenant) => modifierGroupView(doc, tenant.decimals),
    save: manage.saveModifierGroup,
    remove: manage.deleteModifierGroup,
  });
  crud({
    path: 'products',
    type: manage.PRODUCTS as never,
    validate: schemas.validateProduct,
    view: (doc, tenant) => productView(doc, tenant.decimals),
    save: manage.saveProduct,
    remove: manage.deleteProduct,
  });
  /* eslint-enable @typescript-eslint/no-unnecessary-type-assertion */

  routes.get(`${TENANT_CATALOG_PREFIX}/branches/:id/availability`, 'tenant', async (c) => {
    const tenant = tenantOf(c);
    const branchId = pathId(c.params.id);
    c.body = availabilityView(branchId, await getAvailability(ctx, tenant, branchId));
  });
  routes.patch(`${TENANT_CATALOG_PREFIX}/branches/:id/availability`, 'tenant', async (c) => {
    const tenant = tenantOf(c);
    const branchId = pathId(c.params.id);
    c.body = availabilityView(
      branchId,
      await patchAvailability(ctx, tenant, branchId, schemas.validateAvailabilityPatch(requestBody(c))),
    );
  });
  routes.get(`${TENANT_CATALOG_PREFIX}/openapi.json`, 'tenant', (c) => {
    c.body = tenantCatalogApiDocument;
  });
}
