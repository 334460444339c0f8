import type { SecretBox } from '@marketplace/identity';
import type { RedisLock } from '@marketplace/redis';
import type { ContractVersion, Installation } from '../../domain/entities';
import { stateId } from '../../domain/oauth-connect';
import type { GatewayContext } from '../context';
import type { GatewayStore, InstallationEvents, OAuthClient, Port } from '../ports';
import { completeOAuthConnect } from './complete-oauth-connect';

// The OAuth callback's rules, with the stores, the lock and the partner's token endpoint (the
// OAuth client port) as in-memory fakes: a state is single use and expires, a refusal or a failed
// exchange puts the installation back where it was, and a granted code stores the tokens sealed
// and mints the credentials.

const NOW = new Date('2026-01-01T00:00:00Z');
const STATE = 'state-from-the-browser';

const installation: Installation = {
  _id: 'inst-1',
  tenantId: 'tenant-1',
  appId: 'app-1',
  appName: 'Couriers',
  contractVersion: 1,
  authType: 'OAuth2',
  contractScopes: ['Orders.Read'],
  subscribedEvents: [],
  webhookUrl: null,
  status: 'Connecting',
  slot: 'live',
  scopes: [],
  apiKeyId: null,
  webhookSecretSealed: null,
  oauth: null,
  installedAt: NOW,
  connectedAt: null,
  updatedAt: NOW,
};

const version = {
  oauth2: {
    authorizationEndpoint: 'https://partner.example/authorize',
    tokenEndpoint: 'https://partner.example/token',
    clientId: 'client-1',
    clientSecretSealed: 'sealed(contract:app-1:1:client-secret):s3cret',
    scopes: [],
    tokenEndpointAuthMethod: 'client_secret_basic',
  },
} as unknown as ContractVersion;

/** Seals by wrapping: opening with another context fails, as with the real box. */
const box: Pick<Port<SecretBox>, 'seal' | 'open'> = {
  seal: (value, context) => `sealed(${context}):${value}`,
  open: (sealed, context) => {
    const prefix = `sealed(${context}):`;
    if (!sealed.startsWith(prefix)) throw new Error('wrong context');
    return sealed.slice(prefix.length);
  },
};

function fakes(
  options: { stateExpiresAt?: Date; current?: Installation; exchange?: OAuthClient['exchangeCode'] } = {},
) {
  const reverted: string[] = [];
  const updates: unknown[] = [];
  const published: string[] = [];
  const exchanges: unknown[] = [];
  let stateLeft = true;
  const store = {
    oauthStates: {
      takeByStateHashAcrossTenants: async (hash: string) => {
        if (!stateLeft || hash !== stateId(STATE)) return undefined;
        stateLeft = false;
        return {
          _id: hash,
          installationId: installation._id,
          tenantId: installation.tenantId,
          codeVerifierSealed: `sealed(oauth-state:${hash}):the-verifier`,
          createdAt: NOW,
          expiresAt: options.stateExpiresAt ?? new Date(NOW.getTime() + 60_000),
        };
      },
    },
    installations: {
      findLive: async () => options.current ?? installation,
      revertConnecting: async (_owner, _id, status) => {
        reverted.push(status);
        return true;
      },
      updateWithEvent: async (_owner, _id, changes) => {
        updates.push(changes);
        return true;
      },
    } satisfies Partial<GatewayStore['installations']>,
    contractVersions: { findVersion: async () => version },
    apiKeys: { insert: async () => undefined, listActiveIds: async () => [] },
  };
  const oauth: Pick<OAuthClient, 'exchangeCode'> = {
    exchangeCode: async (settings, request) => {
      exchanges.push({ settings, request });
      if (options.exchange) return options.exchange(settings, request);
      return { accessToken: 'at', refreshToken: null, tokenType: 'Bearer', expiresAt: null, scope: null };
    },
  };
  const installationEvents: InstallationEvents = {
    publish: async (id) => {
      published.push(id);
    },
  };
  const locks: Pick<Port<RedisLock>, 'withLock'> = {
    withLock: async (_name, _options, work) => ({ value: await work() }),
  };
  const ctx = {
    store,
    box,
    oauth,
    installationEvents,
    locks,
    publicBaseUrl: 'https://marketplace.example',
    apiKeyHashSecret: Buffer.alloc(32, 1),
    webhookSecretTransportKey: Buffer.alloc(32, 2),
    now: () => NOW,
  } as unknown as GatewayContext;
  return { ctx, reverted, updates, published, exchanges };
}

describe('completeOAuthConnect', () => {
  it('refuses a missing, unknown or expired state, and a state used twice', async () => {
    const invalid = { code: 'oauth.state_invalid' };
    await expect(completeOAuthConnect(fakes().ctx, { code: 'c' })).rejects.toMatchObject(invalid);
    await expect(completeOAuthConnect(fakes().ctx, { state: 'other', code: 'c' })).rejects.toMatchObject(invalid);
    const expired = fakes({ stateExpiresAt: NOW });
    await expect(completeOAuthConnect(expired.ctx, { state: STATE, code: 'c' })).rejects.toMatchObject(invalid);
    const once = fakes();
    await completeOAuthConnect(once.ctx, { state: STATE, code: 'c' });
    await expect(completeOAuthConnect(once.ctx, { state: STATE, code: 'c' })).rejects.toMatchObject(invalid);
  });

  it('puts the installation back when the partner refused, naming only a well-formed reason', async () => {
    const { ctx, reverted, exchanges } = fakes();
    await expect(completeOAuthConnect(ctx, { state: STATE, error: 'access_denied' })).rejects.toMatchObject({
      code: 'oauth.authorization_denied',
      message: expect.stringContaining('(access_denied)'),
    });
    expect(reverted).toEqual(['Installed']);
    expect(exchanges).toEqual([]);
    const odd = fakes();
    await expect(completeOAuthConnect(odd.ctx, { state: STATE, error: '<script>' })).rejects.toMatchObject({
      message: expect.stringContaining('(no_code)'),
    });
  });

  it('puts a reconnecting installation back to Disconnected when the exchange fails', async () => {
    const failure = new Error('token endpoint down');
    const { ctx, reverted } = fakes({
      current: { ...installation, connectedAt: NOW },
      exchange: async () => {
        throw failure;
      },
    });
    // The state names the installation found by findLive: here one that was connected before.
    await expect(completeOAuthConnect(ctx, { state: STATE, code: 'c' })).rejects.toBe(failure);
    expect(reverted).toEqual(['Disconnected']);
  });

  it('exchanges the code with the PKCE verifier and stores the tokens sealed with new credentials', async () => {
    const { ctx, exchanges, updates, published, reverted } = fakes();
    const result = await completeOAuthConnect(ctx, { state: STATE, code: 'the-code' });
    expect(exchanges).toEqual([
      {
        settings: expect.objectContaining({ clientId: 'client-1', clientSecret: 's3cret' }),
        request: {
          code: 'the-code',
          codeVerifier: 'the-verifier',
          redirectUri: 'https://marketplace.example/api/marketplace/oauth/callback',
        },
      },
    ]);
    expect(result.installation).toMatchObject({
      status: 'Connected',
      scopes: ['Orders.Read'],
      oauth: { accessTokenSealed: 'sealed(installation:inst-1:oauth-access-token):at', refreshTokenSealed: null },
    });
    expect(result.credentials.apiKey).toMatch(/^mpk_/);
    expect(updates).toHaveLength(1);
    expect(published).toEqual(['inst-1']);
    expect(reverted).toEqual([]);
  });
});
