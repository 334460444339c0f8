import { randomUUID } from 'node:crypto';
import { conflict, notFound } from '@marketplace/errors';
import { isDuplicateKeyError } from '@marketplace/store';
import type { AppDoc } from '../adapters/store/documents';
import type { GatewayContext } from './context';
import { contractVersionView, publishedVersionSummary } from './contract-versions';

export interface AppInput {
  slug: string;
  name: string;
  description?: string | null;
}

export const appView = (a: AppDoc) => ({ id: a._id, slug: a.slug, name: a.name, description: a.description, createdAt: a.createdAt.toISOString() });

export async function createApp(ctx: GatewayContext, input: AppInput) {
  const doc: AppDoc = { _id: randomUUID(), slug: input.slug, name: input.name, description: input.description ?? null, createdAt: ctx.now() };
  try {
    await ctx.store.apps.insert(doc);
  } catch (error) {
    if (isDuplicateKeyError(error)) throw conflict('marketplace.app.slug_taken', 'An app with this slug already exists.');
    throw error;
  }
  return appView(doc);
}

export async function listApps(ctx: GatewayContext, slug?: string) {
  if (slug) {
    const app = await ctx.store.apps.findBySlug(slug);
    return app ? [appView(app)] : [];
  }
  return (await ctx.store.apps.listAll(1000)).map(appView);
}

export async function getApp(ctx: GatewayContext, appId: string): Promise<AppDoc> {
  const app = await ctx.store.apps.findById(appId);
  if (!app) throw notFound();
  return app;
}

export async function getAppDetail(ctx: GatewayContext, appId: string) {
  const app = await getApp(ctx, appId);
  const versions = await ctx.store.contractVersions.listForApp(appId);
  return { ...appView(app), versions: versions.map(contractVersionView) };
}

/** What tenants browse: apps with at least one published contract version. */
export async function listPublishedApps(ctx: GatewayContext) {
  const versions = await ctx.store.contractVersions.listPublished();
  const apps = await ctx.store.apps.findByIds([...new Set(versions.map((v) => v.appId))]);
  return apps.map((app) => ({
    id: app._id,
    slug: app.slug,
    name: app.name,
    description: app.description,
    versions: versions.filter((v) => v.appId === app._id).map(publishedVersionSummary),
  }));
}
