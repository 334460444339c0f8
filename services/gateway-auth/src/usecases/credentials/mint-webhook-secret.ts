import { mintSigningSecret, webhookSecretContext } from '../../domain/api-key';
import type { GatewayContext } from '../context';

/** A new webhook signing secret: in clear (shown once, sent sealed to the webhook sender) and sealed (stored). */
export function mintWebhookSecret(ctx: GatewayContext, installationId: string): { secret: string; sealed: string } {
  const secret = mintSigningSecret();
  return { secret, sealed: ctx.box.seal(secret, webhookSecretContext(installationId)) };
}
