import type { ProviderDispatch } from '../../domain/dispatch/dispatch';
import { pollDueAt } from '../../domain/dispatch/dispatch';
import type { DeliveryContext } from '../context';
import { createProviderDelivery } from './create-provider-delivery';
import { pollProviderDelivery } from './poll-provider-delivery';
import { saveDispatch } from './save-dispatch';
import { sendProviderCancel } from './send-provider-cancel';
import { syncAssignment } from './sync-assignment';

/** How long a claimed dispatch is left to its worker before another may take it (a crashed worker's). */
const LEASE_MS = 60_000;

/**
 * The dispatcher's work on one due dispatch, in order: claim it (compare-and-set: of several
 * instances one works it; a crash leaves it due again when the lease ends), bring the assignment
 * in line, make the create, send a due cancel, read the state if its callbacks went quiet, bring
 * the assignment in line again, and leave the dispatch due when it next needs anything.
 * 'raced' when another instance claimed it first.
 */
export async function workDispatch(ctx: DeliveryContext, due: ProviderDispatch): Promise<'worked' | 'raced'> {
  const tenant = { tenantId: due.tenantId };
  const claimedAt = ctx.now();
  const leaseUntil = new Date(claimedAt.getTime() + LEASE_MS);
  const claimed: ProviderDispatch = {
    ...due,
    dueAt: leaseUntil,
    leaseUntil,
    version: due.version + 1,
    updatedAt: claimedAt,
  };
  if (!(await ctx.store.dispatches.replaceIfUnchanged(tenant, claimed))) return 'raced';
  const fresh = async () => (await ctx.store.dispatches.find(tenant, due._id)) ?? claimed;

  let current = await syncAssignment(ctx, claimed);
  await createProviderDelivery(ctx, current);
  current = await fresh();
  await sendProviderCancel(ctx, current);
  current = await fresh();
  const polling = pollDueAt(current, ctx.now(), { quietMs: ctx.dispatch.quietMs, polling: true });
  if (polling && polling.getTime() <= ctx.now().getTime()) await pollProviderDelivery(ctx, current);
  await syncAssignment(ctx, await fresh());
  // Release the lease: the write works out when the dispatch is due next.
  await saveDispatch(ctx, tenant, due._id, ({ leaseUntil: _lease, ...d }) => d);
  return 'worked';
}
