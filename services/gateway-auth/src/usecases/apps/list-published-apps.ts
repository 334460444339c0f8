import type { App, ContractVersion } from '../../domain/entities';
import type { GatewayContext } from '../context';

/** An app with its published contract versions. */
export interface PublishedApp {
  app: App;
  versions: ContractVersion[];
}

/** What tenants browse: apps with at least one published contract version. */
export async function listPublishedApps(ctx: GatewayContext): Promise<PublishedApp[]> {
  const versions = await ctx.store.contractVersions.listPublished();
  const apps = await ctx.store.apps.findByIds([...new Set(versions.map((v) => v.appId))]);
  return apps.map((app) => ({ app, versions: versions.filter((v) => v.appId === app._id) }));
}
