import { guardGatewayRoutes, publicKeyFrom } from '@marketplace/identity';
import type { ServiceDefinition } from '@marketplace/runtime';
import { settings } from './config';
import { consumers } from './consumers';
import { registerRoutes } from './http/routes';

/** Ordering and pricing: what it owns, the topics it uses and its indexes, in one place. */
export const orderingPricingService: ServiceDefinition<typeof settings> = {
  name: 'ordering-pricing',
  defaultPort: 4103,
  settings,
  topics: [],
  indexes: {},
  outboxCollections: [],
  setup(context) {
    // Partner and tenant routes answer only requests whose identity the gateway signed.
    context.useBeforeBody(guardGatewayRoutes(publicKeyFrom(context.config.identityPublicKey)));
    registerRoutes(context);
    return { consumers: consumers(context) };
  },
};
