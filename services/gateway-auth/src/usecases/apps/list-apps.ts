import type { App } from '../../domain/entities';
import type { GatewayContext } from '../context';

export async function listApps(ctx: GatewayContext, slug?: string): Promise<App[]> {
  if (slug) {
    const app = await ctx.store.apps.findBySlug(slug);
    return app ? [app] : [];
  }
  return ctx.store.apps.listAll(1000);
}
