import { randomUUID } from 'node:crypto';
import type { ServiceDefinition } from '@marketplace/runtime';
import { SecretBox } from '@marketplace/identity';
import { providerIndexes, providerStore } from './adapters/store';
import { settings } from './config';
import { consumers } from './consumers';
import { registerRoutes } from './http/routes';
import type { ProviderContext } from './usecases/context';
import { KeyCache } from './usecases/key-cache';

/** Provider delivery: what it owns, the topics it uses and its indexes, in one place. */
export const providerDeliveryService: ServiceDefinition<typeof settings> = {
  name: 'provider-delivery',
  defaultPort: 4105,
  errorFormat: 'envelope', // the provider contract's error envelope, not problem+json
  settings,
  topics: [],
  indexes: providerIndexes,
  outboxCollections: [],
  setup(context) {
    const { config } = context;
    const ctx: ProviderContext = {
      store: providerStore(context.db),
      box: new SecretBox(config.secretKey),
      keyCache: new KeyCache(),
      keyHashSecret: config.keyHashSecret,
      allowLoopbackHttpUrls: config.allowLoopbackHttpUrls,
      logger: context.logger,
      now: () => new Date(),
      newId: randomUUID,
    };
    registerRoutes(context, ctx);
    return { consumers: consumers(context) };
  },
};
