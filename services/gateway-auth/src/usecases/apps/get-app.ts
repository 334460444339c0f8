import { notFound } from '@marketplace/errors';
import type { App } from '../../domain/entities';
import type { GatewayContext } from '../context';

export async function getApp(ctx: GatewayContext, appId: string): Promise<App> {
  const app = await ctx.store.apps.findById(appId);
  if (!app) throw notFound();
  return app;
}
