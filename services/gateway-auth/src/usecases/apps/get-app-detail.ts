import type { App, ContractVersion } from '../../domain/entities';
import type { GatewayContext } from '../context';
import { getApp } from './get-app';

/** An app with all its contract versions. */
export interface AppDetail {
  app: App;
  versions: ContractVersion[];
}

export async function getAppDetail(ctx: GatewayContext, appId: string): Promise<AppDetail> {
  const app = await getApp(ctx, appId);
  const versions = await ctx.store.contractVersions.listForApp(appId);
  return { app, versions };
}
