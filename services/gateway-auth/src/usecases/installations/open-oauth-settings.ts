import type { OAuth2Settings } from '../../domain/entities';
import { clientSecretContext } from '../../domain/oauth-connect';
import type { GatewayContext } from '../context';
import type { OAuth2ClientSettings } from '../ports';

/** A contract version's OAuth settings as the OAuth client takes them: the client secret opened. */
export function openOAuthSettings(
  ctx: GatewayContext,
  appId: string,
  version: number,
  oauth2: OAuth2Settings,
): OAuth2ClientSettings {
  return {
    authorizationEndpoint: oauth2.authorizationEndpoint,
    tokenEndpoint: oauth2.tokenEndpoint,
    clientId: oauth2.clientId,
    clientSecret: ctx.box.open(oauth2.clientSecretSealed, clientSecretContext(appId, version)),
    scopes: oauth2.scopes,
    tokenEndpointAuthMethod: oauth2.tokenEndpointAuthMethod,
  };
}
