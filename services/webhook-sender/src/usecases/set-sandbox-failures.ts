import type { InstallationOwner } from '@marketplace/store';
import { notReceiving } from '../domain/installation';
import type { WebhookContext } from './context';

/**
 * The sandbox's `webhook.fail` (the gateway checked that the caller is a sandbox tenant's
 * installation): its next `times` attempts fail unsent, answered 503 by the sandbox itself.
 */
export async function setSandboxFailures(
  ctx: WebhookContext,
  owner: InstallationOwner,
  times: number,
): Promise<{ failingNext: number }> {
  // Before the sender has its copy of a new installation, nothing would be sent to it anyway.
  if (!(await ctx.store.installations.setSandboxFailures(owner, times))) throw notReceiving();
  return { failingNext: times };
}
