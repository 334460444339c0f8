import type { OutboxRelay } from '@marketplace/outbox';
import type { OrderOutbox } from '../usecases/ports';
import { ORDERS } from './store';

/** The orders' outbox through the shared relay: it knows the collection, so the use cases need not. */
export function orderOutbox(relay: Pick<OutboxRelay, 'flush' | 'flushWritten'>): OrderOutbox {
  return {
    flush: (orderId) => relay.flush(ORDERS, orderId),
    flushInserted: (inserted) => relay.flushWritten(ORDERS, inserted),
  };
}
