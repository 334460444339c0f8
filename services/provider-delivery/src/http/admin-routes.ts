import { providerAdminApiDocument } from '@marketplace/contracts';
import { notFound } from '@marketplace/errors';
import { pathId, requestBody, type RouteTable } from '@marketplace/http';
import { KEY_ID_PATTERN } from '../domain/api-key';
import { createAccount } from '../usecases/accounts/create-account';
import { getAccount } from '../usecases/accounts/get-account';
import { listAccounts } from '../usecases/accounts/list-accounts';
import { rotateWebhookSecret } from '../usecases/accounts/rotate-webhook-secret';
import { updateAccount } from '../usecases/accounts/update-account';
import { listKeys } from '../usecases/api-keys/list-keys';
import { mintKey } from '../usecases/api-keys/mint-key';
import { revokeKey } from '../usecases/api-keys/revoke-key';
import { rotateKeys } from '../usecases/api-keys/rotate-keys';
import type { ProviderContext } from '../usecases/context';
import { validateAccountInput, validateAccountPatch, validateRotateRequest } from './schemas';
import { accountView, apiKeyView, mintedKeyView, webhookSecretView } from './views';

const P = '/admin/v1/platform-accounts';

const keyIdOf = (value: string | undefined): string => {
  if (!value || !KEY_ID_PATTERN.test(value)) throw notFound();
  return value;
};

/**
 * The administrator API (the admin guard checks the administrator token before any of these runs):
 * platform accounts, their API keys and webhook secrets.
 */
export function registerAdminRoutes(routes: RouteTable, ctx: ProviderContext): void {
  routes.get('/admin/v1/openapi.json', 'admin', (c) => {
    c.body = providerAdminApiDocument;
  });
  routes.post(P, 'admin', async (c) => {
    const { account, webhookSecret } = await createAccount(ctx, validateAccountInput(requestBody(c)));
    c.status = 201;
    c.body = { account: accountView(account), webhookSecret };
  });
  routes.get(P, 'admin', async (c) => {
    c.body = (await listAccounts(ctx)).map(accountView);
  });
  routes.get(`${P}/:accountId`, 'admin', async (c) => {
    c.body = accountView(await getAccount(ctx, pathId(c.params.accountId)));
  });
  routes.patch(`${P}/:accountId`, 'admin', async (c) => {
    const accountId = pathId(c.params.accountId);
    c.body = accountView(await updateAccount(ctx, accountId, validateAccountPatch(requestBody(c))));
  });
  routes.post(`${P}/:accountId/api-keys`, 'admin', async (c) => {
    const minted = await mintKey(ctx, pathId(c.params.accountId));
    c.status = 201;
    c.body = mintedKeyView(minted);
  });
  routes.get(`${P}/:accountId/api-keys`, 'admin', async (c) => {
    const now = ctx.now();
    c.body = (await listKeys(ctx, pathId(c.params.accountId))).map((key) => apiKeyView(key, now));
  });
  routes.post(`${P}/:accountId/api-keys/rotate`, 'admin', async (c) => {
    const accountId = pathId(c.params.accountId);
    const minted = await rotateKeys(ctx, accountId, validateRotateRequest(requestBody(c) ?? {}));
    c.status = 201;
    c.body = mintedKeyView(minted);
  });
  routes.delete(`${P}/:accountId/api-keys/:keyId`, 'admin', async (c) => {
    await revokeKey(ctx, pathId(c.params.accountId), keyIdOf(c.params.keyId));
    c.status = 204;
  });
  routes.post(`${P}/:accountId/webhook-secret/rotate`, 'admin', async (c) => {
    c.body = webhookSecretView(await rotateWebhookSecret(ctx, pathId(c.params.accountId)));
  });
}
