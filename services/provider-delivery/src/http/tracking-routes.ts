import type Router from '@koa/router';
import { notFound } from '@marketplace/errors';
import type { RequestState } from '@marketplace/http';
import type { PublicTrackingView } from '../domain/tracking-view';
import type { ProviderContext } from '../usecases/context';
import { publicTracking } from '../usecases/public-tracking';
import { TRACKING_HEADERS, TRACKING_NOT_FOUND_HTML, TRACKING_PAGE_CSP, trackingPageHtml } from './tracking-page';

/** What the page's script reads: the view, dates as ISO 8601 instants. */
export const trackingStateBody = (view: PublicTrackingView) => ({
  ...view,
  estimatedDeliveryAtUtc: view.estimatedDeliveryAtUtc?.toISOString() ?? null,
  updatedAtUtc: view.updatedAtUtc.toISOString(),
  servedAtUtc: view.servedAtUtc.toISOString(),
});

/** The JSON answer is no document to render or frame. */
const STATE_CSP = "default-src 'none'; frame-ancestors 'none'";

/**
 * The public tracking page of a delivery (its `trackingUrl`) and the state its script refreshes
 * from. No authentication: the token in the path is the capability (guardRoutes guards only
 * `/admin/v1/` and `/v1/`), and the access log shows the path with `:token` redacted. Not in an
 * OpenAPI document: these are a page for people, not an API of the contract.
 */
export function registerTrackingRoutes(router: Router<RequestState>, ctx: ProviderContext): void {
  router.get('/track/:token', async (c) => {
    c.set({ ...TRACKING_HEADERS, 'Content-Security-Policy': TRACKING_PAGE_CSP });
    const view = await publicTracking(ctx, c.params.token);
    c.type = 'text/html; charset=utf-8';
    if (!view) {
      c.status = 404;
      c.body = TRACKING_NOT_FOUND_HTML;
      return;
    }
    c.body = trackingPageHtml(view);
  });
  router.get('/track/:token/state', async (c) => {
    c.set({ ...TRACKING_HEADERS, 'Content-Security-Policy': STATE_CSP });
    const view = await publicTracking(ctx, c.params.token);
    if (!view) throw notFound();
    c.type = 'application/json; charset=utf-8';
    c.body = trackingStateBody(view);
  });
}
