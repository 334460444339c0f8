import type { RouterContext } from '@koa/router';
import { identityOf } from '@marketplace/identity';
import { pathId, queryId, requestBody, type RequestState, type RouteTable } from '@marketplace/http';
import { tenantCatalogApiDocument } from '@marketplace/contracts';
import type { ManagedKind, ManagedResources } from '../domain/model';
import type { CatalogContext, TenantScope } from '../usecases/context';
import { deleteBranch } from '../usecases/delete-branch';
import { deleteCategory } from '../usecases/delete-category';
import { deleteModifierGroup } from '../usecases/delete-modifier-group';
import { deleteProduct } from '../usecases/delete-product';
import { deleteTaxCategory } from '../usecases/delete-tax-category';
import { findResource } from '../usecases/find-resource';
import { getAvailability } from '../usecases/get-availability';
import { listProductsInCategory } from '../usecases/list-products-in-category';
import { listResources } from '../usecases/list-resources';
import { patchAvailability } from '../usecases/patch-availability';
import { saveBranch } from '../usecases/save-branch';
import { saveCategory } from '../usecases/save-category';
import { saveModifierGroup } from '../usecases/save-modifier-group';
import { saveProduct } from '../usecases/save-product';
import { saveTaxCategory } from '../usecases/save-tax-category';
import * as schemas from './schemas';
import { tenantScope } from './tenant-scope';
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

/** The five routes of one kind of resource: where they are, and how a body is read and shown. */
interface CrudRoutes<K extends ManagedKind, I> {
  path: string;
  kind: K;
  validate(body: unknown): I;
  view(doc: ManagedResources[K], tenant: TenantScope): unknown;
  save(ctx: CatalogContext, tenant: TenantScope, id: string | undefined, input: I): Promise<ManagedResources[K]>;
  remove(ctx: CatalogContext, tenant: TenantScope, id: string): Promise<void>;
}

/** Tenant API: the catalog's management, one set of five routes per resource, plus availability. */
export function registerTenantRoutes(routes: RouteTable, ctx: CatalogContext): void {
  registerCrudRoutes(routes, ctx, {
    path: 'tax-categories',
    kind: 'tax-category',
    validate: schemas.validateTaxCategory,
    view: taxCategoryView,
    save: saveTaxCategory,
    remove: deleteTaxCategory,
  });
  registerCrudRoutes(routes, ctx, {
    path: 'branches',
    kind: 'branch',
    validate: schemas.validateBranch,
    view: tenantBranchView,
    save: saveBranch,
    remove: deleteBranch,
  });
  registerCrudRoutes(routes, ctx, {
    path: 'categories',
    kind: 'category',
    validate: schemas.validateCategory,
    view: categoryView,
    save: saveCategory,
    remove: deleteCategory,
  });
  registerCrudRoutes(routes, ctx, {
    path: 'modifier-groups',
    kind: 'modifier-group',
    validate: schemas.validateModifierGroup,
    view: (doc, tenant) => modifierGroupView(doc, tenant.decimals),
    save: saveModifierGroup,
    remove: deleteModifierGroup,
  });
  registerCrudRoutes(routes, ctx, {
    path: 'products',
    kind: 'product',
    validate: schemas.validateProduct,
    view: (doc, tenant) => productView(doc, tenant.decimals),
    save: saveProduct,
    remove: deleteProduct,
  });
  registerAvailabilityRoutes(routes, ctx);
  routes.get(`${TENANT_CATALOG_PREFIX}/openapi.json`, 'tenant', (c) => {
    c.body = tenantCatalogApiDocument;
  });
}

/** Create, list, read, replace and delete of one kind of resource. */
function registerCrudRoutes<K extends ManagedKind, I>(routes: RouteTable, ctx: CatalogContext, r: CrudRoutes<K, I>) {
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
        ? ((await listProductsInCategory(ctx, tenant, categoryId)) as ManagedResources[K][])
        : await listResources(ctx, r.kind, tenant);
    c.body = docs.map((doc) => r.view(doc, tenant));
  });
  routes.get(`${base}/:id`, 'tenant', async (c) => {
    const tenant = tenantOf(c);
    c.body = r.view(await findResource(ctx, r.kind, tenant, pathId(c.params.id)), tenant);
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
}

/** A branch's availability overrides: read, and patched a few entries at a time. */
function registerAvailabilityRoutes(routes: RouteTable, ctx: CatalogContext) {
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
}
