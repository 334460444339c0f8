import type { Credentials, Installation } from '../../domain/entities';
import { nextRevision } from '../../domain/installations';
import type { GatewayContext } from '../context';
import { issueApiKey } from '../credentials/issue-api-key';
import { mintWebhookSecret } from '../credentials/mint-webhook-secret';
import { changeInstallation } from './change-installation';

/** New API key and (when events are subscribed) signing secret; the old ones stop working. Lock held. */
export async function mintCredentials(
  ctx: GatewayContext,
  installation: Installation,
  oauth: Installation['oauth'] = installation.oauth,
): Promise<{ installation: Installation; credentials: Credentials }> {
  const scopes = installation.contractScopes; // fixed at connect time from the consented version
  const key = await issueApiKey(ctx, installation, scopes);
  const webhook = installation.subscribedEvents.length > 0 ? mintWebhookSecret(ctx, installation._id) : null;
  const now = ctx.now();
  const changes = {
    status: 'Connected' as const,
    scopes,
    apiKeyId: key.keyId,
    webhookSecretSealed: webhook?.sealed ?? null,
    oauth,
    connectedAt: now,
    updatedAt: now,
    eventRevision: nextRevision(installation),
  };
  await changeInstallation(ctx, installation, changes, webhook?.secret ?? null);
  return {
    installation: { ...installation, ...changes },
    credentials: { apiKey: key.apiKey, webhookSigningSecret: webhook?.secret ?? null },
  };
}
