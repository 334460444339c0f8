import type { ContractVersionInput } from '@marketplace/contracts';
import type { ContractVersion } from '../../domain/entities';
import { clientSecretContext } from '../../domain/oauth-connect';
import type { GatewayContext } from '../context';

/** The fields of a contract version an administrator sets (and may change while it is a draft). */
export type ContractFields = Pick<
  ContractVersion,
  'authType' | 'scopes' | 'subscribedEvents' | 'webhookUrl' | 'oauth2'
>;

/** The input as stored: lists without repeats, the OAuth client secret sealed to this version. */
export function sealContractFields(
  ctx: GatewayContext,
  appId: string,
  version: number,
  input: ContractVersionInput,
): ContractFields {
  const oauth2 =
    input.authType === 'OAuth2' && input.oauth2
      ? {
          authorizationEndpoint: input.oauth2.authorizationEndpoint,
          tokenEndpoint: input.oauth2.tokenEndpoint,
          clientId: input.oauth2.clientId,
          clientSecretSealed: ctx.box.seal(input.oauth2.clientSecret, clientSecretContext(appId, version)),
          scopes: input.oauth2.scopes ?? [],
          tokenEndpointAuthMethod: input.oauth2.tokenEndpointAuthMethod ?? 'client_secret_basic',
        }
      : null;
  return {
    authType: input.authType,
    scopes: [...new Set(input.scopes)],
    subscribedEvents: [...new Set(input.subscribedEvents)],
    webhookUrl: input.webhookUrl ?? null,
    oauth2,
  };
}
