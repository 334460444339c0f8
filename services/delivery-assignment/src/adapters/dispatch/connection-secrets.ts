import { verifyPlatformCallback } from 'marketplace-webhooks';
import { SecretBox } from '@marketplace/identity';
import type { ProviderConnection } from '../../domain/dispatch/connection';
import type { ConnectionSecrets } from '../../usecases/ports';

const contexts = {
  apiKey: (connectionId: string) => `provider-connection:${connectionId}:api-key`,
  signingSecret: (connectionId: string) => `provider-connection:${connectionId}:signing-secret`,
  callbackUrl: (assignmentId: string) => `provider-dispatch:${assignmentId}:callback-url`,
};

/**
 * A connection's secrets at rest, under PROVIDER_CONNECTION_SECRETS_KEY (AES-256-GCM, each value
 * bound to its connection or dispatch): the provider's API key, its signing secret and each
 * delivery's callback URL (its token routes callbacks). Opened only for the call or check at hand.
 */
export class SealedConnectionSecrets implements ConnectionSecrets {
  private readonly box: SecretBox;

  constructor(key: Buffer) {
    this.box = new SecretBox(key);
  }

  sealCredentials(connectionId: string, credentials: { apiKey: string; signingSecret: string }) {
    return {
      apiKeySealed: this.box.seal(credentials.apiKey, contexts.apiKey(connectionId)),
      signingSecretSealed: this.box.seal(credentials.signingSecret, contexts.signingSecret(connectionId)),
    };
  }

  openApiKey(connection: ProviderConnection): string {
    return this.box.open(connection.apiKeySealed, contexts.apiKey(connection._id));
  }

  sealCallbackUrl(assignmentId: string, url: string): string {
    return this.box.seal(url, contexts.callbackUrl(assignmentId));
  }

  openCallbackUrl(assignmentId: string, sealed: string): string {
    return this.box.open(sealed, contexts.callbackUrl(assignmentId));
  }

  verifyCallback(connection: ProviderConnection, rawBody: Buffer, signature: string | undefined): boolean {
    if (signature === undefined) return false;
    const secret = this.box.open(connection.signingSecretSealed, contexts.signingSecret(connection._id));
    return verifyPlatformCallback({ body: rawBody, headers: signature, secret }).ok;
  }
}
