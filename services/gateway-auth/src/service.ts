import type { ServiceDefinition } from '@marketplace/runtime';
import { settings } from './config';
import { consumers } from './consumers';
import { registerRoutes } from './http/routes';

/** Gateway and auth: what it owns, the topics it uses and its indexes, in one place. */
export const gatewayAuthService: ServiceDefinition<typeof settings> = {
  name: 'gateway-auth',
  defaultPort: 4101,
  settings,
  topics: [],
  indexes: {},
  outboxCollections: [],
  setup(context) {
    registerRoutes(context);
    return { consumers: consumers(context) };
  },
};
