import type { Menu } from '../domain/menu';
import type { Branch, Product } from '../domain/model';
import type { RenderedBody } from '../domain/rendered-body';
import type { TenantScope } from '../domain/tenant-scope';

/**
 * The kept partner bodies of a tenant's current menu (adapters/menu-cache.ts). `keyOf` names the
 * body within the menu's revision; `render` makes it when it is not kept (it may throw a 404).
 */
export interface MenuCache {
  body(tenant: TenantScope, keyOf: (menu: Menu) => string, render: (menu: Menu) => RenderedBody): Promise<RenderedBody>;
}

/**
 * How each partner body is shaped (http/views/partner.ts; service.ts wires them in): the reads keep
 * what these return, serialized.
 */
export interface PartnerViews {
  branches(branches: Branch[]): unknown;
  productList(menu: Menu, branchId: string, language: string): unknown;
  productDetail(menu: Menu, branchId: string, product: Product, language: string): unknown;
}

/** Publishes the events waiting in a changed document (the outbox relay). */
export interface EventOutbox {
  flush(collection: string, id: string): Promise<void>;
}
