import type Router from '@koa/router';
import { providerAdminApiDocument } from '@marketplace/contracts';
import { notFound } from '@marketplace/errors';
import { pathId, requestBody, type RequestState } from '@marketplace/http';
import { KEY_ID_PATTERN } from '../domain/api-key';
import { listKeys, mintKey, revokeKey, rotateKeys } from '../usecases/api-keys';
import type { ProviderContext } from '../usecases/context';
import {
  createAccount,
  getAccount,
  listAccounts,
  rotateWebhookSecret,
  updateAccount,
} from '../usecases/platform-accounts';
import { validateAccountInput, validateAccountPatch, validateRotateRequest } from './schemas';
import { accountView, apiKeyView, mintedKeyView, webhookSecretView } from './views';

const P = '/admin/v1/platform-accounts';

const keyIdOf = (value: string | undefined): string => {
  if (!value || !KEY_ID_PATTERN.test(value)) throw notFound();
  return value;
};

/**
 * The administrator API (guardRoutes checks the administrator token before any of these runs):
 * platform accounts, their API keys and webhook secrets.
 */
export function registerAdminRoutes(router: Router<RequestState>, ctx: ProviderContext): void {
  router.get('/admin/v1/openapi.json', (c) => {
    c.body = providerAdminApiDocument;
  });
  router.post(P, async (c) => {
    const { account, webhookSecret } = await createAccount(ctx, validateAccountInput(requestBody(c)));
    c.status = 201;
    c.body = { account: accountView(account), webhookSecret };
  });
  router.get(P, async (c) => {
    c.body = (await listAccounts(ctx)).map(accountView);
  });
  router.get(`${P}/:accountId`, async (c) => {
    c.body = accountView(await getAccount(ctx, pathId(c.params.accountId)));
  });
  router.patch(`${P}/:accountId`, async (c) => {
    const accountId = pathId(c.params.accountId);
    c.body = accountView(await updateAccount(ctx, accountId, validateAccountPatch(requestBody(c))));
  });
  router.post(`${P}/:accountId/api-keys`, async (c) => {
    const minted = await mintKey(ctx, pathId(c.params.accountId));
    c.status = 201;
    c.body = mintedKeyView(minted);
  });
  router.get(`${P}/:accountId/api-keys`, async (c) => {
    const now = ctx.now();
    c.body = (await listKeys(ctx, pathId(c.params.accountId))).map((key) => apiKeyView(key, now));
  });
  router.post(`${P}/:accountId/api-keys/rotate`, async (c) => {
    const accountId = pathId(c.params.accountId);
    const minted = await rotateKeys(ctx, accountId, validateRotateRequest(requestBody(c) ?? {}));
    c.status = 201;
    c.body = mintedKeyView(minted);
  });
  router.delete(`${P}/:accountId/api-keys/:keyId`, async (c) => {
    await revokeKey(ctx, pathId(c.params.accountId), keyIdOf(c.params.keyId));
    c.status = 204;
  });
  router.post(`${P}/:accountId/webhook-secret/rotate`, async (c) => {
    c.body = webhookSecretView(await rotateWebhookSecret(ctx, pathId(c.params.accountId)));
  });
}
