import { AppError } from '@marketplace/errors';
import { bodyValidator, formatError, rawRequestBody, type RouteTable, type RouteMiddleware } from '@marketplace/http';
import { requestSchemas, type PlatformCallbackEvent } from '@marketplace/contracts';
import { CALLBACK_PATH } from '../domain/dispatch/callback-token';
import type { DeliveryContext } from '../usecases/context';
import { receiveProviderCallback, type CallbackBody } from '../usecases/dispatch/receive-provider-callback';

const validateEvent = bodyValidator<PlatformCallbackEvent>(requestSchemas.PlatformCallbackEvent, { status: 422 });

/** The body, or why it is refused: not JSON is 400; a status outside the vocabulary 422 `callback.status_unknown`. */
function parseCallback(raw: Buffer): CallbackBody {
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    return { problem: new AppError('validation', 'request.malformed', 'The body is not JSON.'), unknownStatus: false };
  }
  try {
    return { event: validateEvent(body) };
  } catch (error) {
    const unknownStatus = error instanceof AppError && Object.keys(error.fieldErrors ?? {}).includes('status');
    return {
      problem: unknownStatus
        ? new AppError(
            'unprocessable',
            'callback.status_unknown',
            'The status is not one of the contract’s vocabulary; the last recognised state is kept.',
            {
              fieldErrors: error.fieldErrors,
            },
          )
        : (error as AppError),
      unknownStatus,
    };
  }
}

/**
 * The `public` audience of this service is the providers' callback route, which speaks the
 * provider contract's error envelope (code, message, retryable) like the provider side does, not
 * problem+json: errors of the route are rendered so here, before the service's own handler.
 */
export const envelopeErrors: RouteMiddleware = async (c, next) => {
  try {
    await next();
  } catch (thrown) {
    if (!(thrown instanceof AppError)) throw thrown;
    const response = formatError(thrown, 'envelope', c.path);
    c.status = response.status;
    for (const [name, value] of Object.entries(response.headers)) c.set(name, value);
    c.type = response.contentType;
    c.body = response.body;
  }
};

/**
 * Where providers POST each delivery's events (`<PLATFORM_CALLBACK_BASE_URL>/api/provider-callbacks/v1/<token>`):
 * public, authenticated by the URL's token and X-Platform-Signature (usecases/dispatch/receive-provider-callback.ts).
 * 200 `{ received: true, applied }` for every event taken, a duplicate or a stale one included, so
 * the provider stops retrying it.
 */
export function registerCallbackRoutes(routes: RouteTable, ctx: DeliveryContext): void {
  routes.post(`${CALLBACK_PATH}/:token`, 'public', async (c) => {
    const raw = Buffer.from(rawRequestBody(c) ?? '', 'utf8');
    const outcome = await receiveProviderCallback(
      ctx,
      c.params.token ?? '',
      raw,
      c.get('x-platform-signature') || undefined,
      parseCallback,
    );
    c.set('Cache-Control', 'no-store');
    c.body = { received: true, applied: outcome.applied };
  });
}
