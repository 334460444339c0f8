import { validationError } from '@marketplace/errors';
import type { DispatchRulesInput } from '@marketplace/contracts';
import type { TenantOwner } from '@marketplace/store';
import type { DispatchRules } from '../../domain/dispatch/plan';
import type { DeliveryContext } from '../context';

/**
 * The tenant sets its dispatch rules: its provider connections' installations, best first (each
 * must be one of its own or of an offered connection it added: 400 naming the others), and rescue.
 */
export async function setDispatchRules(
  ctx: DeliveryContext,
  tenant: TenantOwner,
  input: DispatchRulesInput,
): Promise<DispatchRules> {
  const connections = input.connections.map((id) => id.toLowerCase());
  const known = await Promise.all(connections.map((id) => ctx.store.connectionInstallations.find(tenant, id)));
  const unknown = connections.filter((_, i) => !known[i]);
  if (unknown.length > 0)
    throw validationError('request.invalid', 'The request is invalid.', {
      connections: unknown.map((id) => `${id} is not an installation of one of the tenant's provider connections`),
    });
  return ctx.store.dispatchRules.save(tenant, { connections, rescue: input.rescue, updatedAt: ctx.now() });
}
