import type { ServiceDefinition } from '@marketplace/runtime';
import { settings } from './config';
import { consumers } from './consumers';
import { registerRoutes } from './http/routes';

/** Webhook sender: what it owns, the topics it uses and its indexes, in one place. */
export const webhookSenderService: ServiceDefinition<typeof settings> = {
  name: 'webhook-sender',
  defaultPort: 4106,
  settings,
  topics: [],
  indexes: {},
  outboxCollections: [],
  setup(context) {
    registerRoutes(context);
    return { consumers: consumers(context) };
  },
};
