import type { RouteMiddleware, RouteTable } from '@marketplace/http';
import { notFound } from '@marketplace/errors';
import type { PublicTrackingView } from '../domain/tracking-view';
import type { ProviderContext } from '../usecases/context';
import { readPublicTracking } from '../usecases/deliveries/read-public-tracking';
import {
  TRACKING_HEADERS,
  TRACKING_NOT_FOUND_HTML,
  TRACKING_PAGE_CSP,
  TRACKING_TOO_MANY_REQUESTS_HTML,
  trackingPageHtml,
} from './tracking-page';

/** What the page's script reads: the view, dates as ISO 8601 instants. */
export const trackingStateBody = (view: PublicTrackingView) => ({
  ...view,
  estimatedDeliveryAtUtc: view.estimatedDeliveryAtUtc?.toISOString() ?? null,
  updatedAtUtc: view.updatedAtUtc.toISOString(),
  servedAtUtc: view.servedAtUtc.toISOString(),
});

/** The JSON answer is no document to render or frame. */
const STATE_CSP = "default-src 'none'; frame-ancestors 'none'";

export const TRACKING_PAGE_PATH = '/track/:token';
export const TRACKING_STATE_PATH = '/track/:token/state';

/**
 * A tracking route refused by a rate limit (the public guard, auth.ts, before the route runs),
 * answered in the page's own format: the page is 429 with a small page of its own (HTML, the
 * page's headers, Retry-After); the state gets its headers, and the caller throws the envelope's
 * 429 as for its 404. False for any other route: the caller answers it.
 */
export function answerTooManyTrackingRequests(c: Parameters<RouteMiddleware>[0], retryAfterSeconds: number): boolean {
  if (c._matchedRoute === TRACKING_PAGE_PATH) {
    c.set({
      ...TRACKING_HEADERS,
      'Content-Security-Policy': TRACKING_PAGE_CSP,
      'Retry-After': String(retryAfterSeconds),
    });
    c.status = 429;
    c.type = 'text/html; charset=utf-8';
    c.body = TRACKING_TOO_MANY_REQUESTS_HTML;
    return true;
  }
  if (c._matchedRoute === TRACKING_STATE_PATH) c.set({ ...TRACKING_HEADERS, 'Content-Security-Policy': STATE_CSP });
  return false;
}

/**
 * The public tracking page of a delivery (its `trackingUrl`) and the state its script refreshes
 * from. No authentication: the token in the path is the capability (it is declared for the public audience:
 * anyone holding the link), and the access log shows the path with `:token` redacted. Not in an
 * OpenAPI document: these are a page for people, not an API of the contract.
 */
export function registerTrackingRoutes(routes: RouteTable, ctx: ProviderContext): void {
  routes.get(TRACKING_PAGE_PATH, 'public', async (c) => {
    c.set({ ...TRACKING_HEADERS, 'Content-Security-Policy': TRACKING_PAGE_CSP });
    const view = await readPublicTracking(ctx, c.params.token);
    c.type = 'text/html; charset=utf-8';
    if (!view) {
      c.status = 404;
      c.body = TRACKING_NOT_FOUND_HTML;
      return;
    }
    c.body = trackingPageHtml(view);
  });
  routes.get(TRACKING_STATE_PATH, 'public', async (c) => {
    c.set({ ...TRACKING_HEADERS, 'Content-Security-Policy': STATE_CSP });
    const view = await readPublicTracking(ctx, c.params.token);
    if (!view) throw notFound();
    c.type = 'application/json; charset=utf-8';
    c.body = trackingStateBody(view);
  });
}
