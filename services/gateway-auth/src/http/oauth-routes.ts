import type { RouteTable } from '@marketplace/http';
import { OAUTH_CALLBACK_PATH } from '../domain/oauth-connect';
import type { GatewayContext } from '../usecases/context';
import { completeOAuthConnect } from '../usecases/installations/complete-oauth-connect';
import { credentialsResultView } from './views/installations';

const single = (value: unknown) => (typeof value === 'string' && value.length <= 4096 ? value : undefined);

/**
 * Where the partner's authorization server sends the restaurant's browser. The answer shows the
 * new credentials once (JSON, never cached); errors are problem+json with their own codes.
 */
export function registerOAuthRoutes(routes: RouteTable, ctx: GatewayContext): void {
  routes.get(OAUTH_CALLBACK_PATH, 'public', async (c) => {
    c.set('Cache-Control', 'no-store');
    c.set('Referrer-Policy', 'no-referrer');
    c.body = credentialsResultView(
      await completeOAuthConnect(ctx, {
        code: single(c.query.code),
        state: single(c.query.state),
        error: single(c.query.error),
      }),
    );
  });
}
