import { defaultEventTypes, type PlatformAccount } from './platform-account';

/**
 * A platform account for the unit tests of the rules that read it (create and update rules); not
 * built. Served around 13–14° E, 52–53° N; every capability on unless told.
 */
export const testAccount = (capabilities: Partial<PlatformAccount['capabilities']> = {}): PlatformAccount => ({
  id: 'acc',
  name: 'P',
  webhookUrl: null,
  capabilities: {
    supportsPolling: true,
    supportsReturnToOrigin: true,
    supportsProofOfDelivery: false,
    supportsScheduledDelivery: true,
    supportsUpdates: true,
    supportsCancellation: true,
    ...capabilities,
  },
  serviceArea: {
    type: 'Polygon',
    coordinates: [
      [
        [13, 52],
        [14, 52],
        [14, 53],
        [13, 53],
        [13, 52],
      ],
    ],
  },
  rateLimit: { requestsPerMinute: 1_000 },
  simulator: { enabled: false, drivers: 0, timeScale: 1 },
  eventTypes: defaultEventTypes(),
  createdAt: new Date(0),
  updatedAt: new Date(0),
});
