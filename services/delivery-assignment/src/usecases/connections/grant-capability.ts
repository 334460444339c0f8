import { busy, notFound } from '@marketplace/errors';
import type { CapabilityGrantInput } from '@marketplace/contracts';
import type { ProviderConnection } from '../../domain/dispatch/connection';
import type { DeliveryContext } from '../context';

const ADMINISTRATOR = { platform: true } as const;

/**
 * An administrator enables or disables one capability of any connection, with the reason recorded
 * on the grant (and the request in the audit trail): how a capability is enabled where no
 * conformance certificate covers it yet. A later certificate leaves this decision in place.
 */
export async function grantCapability(
  ctx: DeliveryContext,
  connectionId: string,
  input: CapabilityGrantInput,
  subject: string,
): Promise<ProviderConnection> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const connection = await ctx.store.connections.find(ADMINISTRATOR, connectionId);
    if (!connection) throw notFound();
    const now = ctx.now();
    const next: ProviderConnection = {
      ...connection,
      capabilities: {
        ...connection.capabilities,
        [input.capability]: {
          enabled: input.enabled,
          by: 'administrator',
          reason: `${input.reason.trim()} (${subject})`,
          at: now,
        },
      },
      updatedAt: now,
      version: connection.version + 1,
    };
    if (await ctx.store.connections.replaceIfUnchanged(ADMINISTRATOR, next)) {
      await ctx.dispatch.events.connection(next._id);
      return next;
    }
  }
  throw busy('The connection is being changed by other requests; try again.');
}
