import { randomUUID } from 'node:crypto';
import { conflict, notFound } from '@marketplace/errors';
import { isDuplicateKeyError } from '@marketplace/store';
import type { AppInput } from '@marketplace/contracts';
import type { GatewayContext } from './context';
import type { App, ContractVersion } from './entities';

/** An app with all its contract versions. */
export interface AppDetail {
  app: App;
  versions: ContractVersion[];
}

/** An app with its published contract versions. */
export interface PublishedApp {
  app: App;
  versions: ContractVersion[];
}

export async function createApp(ctx: GatewayContext, input: AppInput): Promise<App> {
  const doc: App = {
    _id: randomUUID(),
    slug: input.slug,
    name: input.name,
    description: input.description ?? null,
    createdAt: ctx.now(),
  };
  try {
    await ctx.store.apps.insert(doc);
  } catch (error) {
    if (isDuplicateKeyError(error))
      throw conflict('marketplace.app.slug_taken', 'An app with this slug already exists.');
    throw error;
  }
  return doc;
}

export async function listApps(ctx: GatewayContext, slug?: string): Promise<App[]> {
  if (slug) {
    const app = await ctx.store.apps.findBySlug(slug);
    return app ? [app] : [];
  }
  return ctx.store.apps.listAll(1000);
}

export async function getApp(ctx: GatewayContext, appId: string): Promise<App> {
  const app = await ctx.store.apps.findById(appId);
  if (!app) throw notFound();
  return app;
}

export async function getAppDetail(ctx: GatewayContext, appId: string): Promise<AppDetail> {
  const app = await getApp(ctx, appId);
  const versions = await ctx.store.contractVersions.listForApp(appId);
  return { app, versions };
}

/** What tenants browse: apps with at least one published contract version. */
export async function listPublishedApps(ctx: GatewayContext): Promise<PublishedApp[]> {
  const versions = await ctx.store.contractVersions.listPublished();
  const apps = await ctx.store.apps.findByIds([...new Set(versions.map((v) => v.appId))]);
  return apps.map((app) => ({ app, versions: versions.filter((v) => v.appId === app._id) }));
}
