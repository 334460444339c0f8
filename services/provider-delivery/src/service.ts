import type { ServiceDefinition } from '@marketplace/runtime';
import { settings } from './config';
import { consumers } from './consumers';
import { registerRoutes } from './http/routes';

/** Provider delivery: what it owns, the topics it uses and its indexes, in one place. */
export const providerDeliveryService: ServiceDefinition<typeof settings> = {
  name: 'provider-delivery',
  defaultPort: 4105,
  errorFormat: 'envelope', // the provider contract's error envelope, not problem+json
  settings,
  topics: [],
  indexes: {},
  outboxCollections: [],
  setup(context) {
    registerRoutes(context);
    return { consumers: consumers(context) };
  },
};
