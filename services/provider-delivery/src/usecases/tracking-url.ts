import type { ProviderContext } from './context';

/** The public tracking page of a delivery (http/tracking-routes.ts serves it). */
export const trackingUrlOf = (ctx: ProviderContext, trackingToken: string): string =>
  `${ctx.publicBaseUrl}/track/${trackingToken}`;
