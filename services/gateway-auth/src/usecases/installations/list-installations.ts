import type { Installation } from '../../domain/entities';
import type { GatewayContext } from '../context';

export async function listInstallations(ctx: GatewayContext, tenantId: string): Promise<Installation[]> {
  return ctx.store.installations.listLive({ tenantId });
}
