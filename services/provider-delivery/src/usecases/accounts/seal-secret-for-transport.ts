import { sealForTransport, TRANSPORT_CONTEXTS } from '@marketplace/identity';
import type { ProviderContext } from '../context';
import type { TransportSecret } from '../ports';

/**
 * An account's signing secret sealed for the webhook sender under WEBHOOK_SECRET_TRANSPORT_KEY,
 * bound to the account: what delivery events and a rotation carry on `provider-events`.
 */
export const sealSecretForTransport = (
  ctx: ProviderContext,
  accountId: string,
  plain: string,
  rotatedAt: Date,
): TransportSecret => ({
  sealed: sealForTransport(ctx.transportKey, TRANSPORT_CONTEXTS.platformAccountSecret(accountId), plain),
  rotatedAt: rotatedAt.toISOString(),
});
