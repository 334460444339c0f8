import type { ConsumerSpec, ServiceContext } from '@marketplace/runtime';
import type { settings } from '../config';

/** Kafka consumers of this service; each runs in the consumer group `gateway-auth.<name>`. */
export function consumers(_context: ServiceContext<typeof settings>): ConsumerSpec[] {
  return [];
}
