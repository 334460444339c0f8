import type { OutboxRelay } from '@marketplace/outbox';
import type { DeliveryEvents } from '../usecases/ports';
import { DELIVERIES } from './store';

/** Publishes a delivery's waiting events through the outbox relay, which reads them by collection. */
export function outboxDeliveryEvents(outbox: Pick<OutboxRelay, 'flush'>): DeliveryEvents {
  return { publish: (orderId) => outbox.flush(DELIVERIES, orderId) };
}
