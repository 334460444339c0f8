import { guardGatewayRoutes, publicKeyFrom } from '@marketplace/identity';
import type { ServiceDefinition } from '@marketplace/runtime';
import { settings } from './config';
import { consumers } from './consumers';
import { registerRoutes } from './http/routes';

/** Catalog: what it owns, the topics it uses and its indexes, in one place. */
export const catalogService: ServiceDefinition<typeof settings> = {
  name: 'catalog',
  defaultPort: 4102,
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
