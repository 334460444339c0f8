import { base64Key } from '@marketplace/config';
import { openFromTransport, sealForTransport } from './webhook-secret-transport';

/**
 * A Delivery order's drop-off (the customer's name, phone and address) travels from
 * ordering-pricing, which owns it, to delivery-assignment, which hands it to a delivery provider
 * when the marketplace dispatches the order (the provider contract's create request), inside the
 * order's `orders.created` event: sealed with AES-256-GCM under a key only those two services hold,
 * bound to the order, so that teams reading the orders topic see no customer data.
 */
export const customerDataTransportKeySetting = () => base64Key('CUSTOMER_DATA_TRANSPORT_KEY', { bytes: 32 });

const dropoffContext = (orderId: string) => `order:${orderId}:dropoff`;

/** What a provider needs to reach the customer. */
export interface OrderDropoff {
  customerName: string;
  customerPhone: string;
  addressLine: string;
  latitude: number;
  longitude: number;
  /** The address's own notes (a door code) and the customer's notes, as the order has them. */
  addressNotes: string | null;
  customerNotes: string | null;
}

export function sealOrderDropoff(key: Buffer, orderId: string, dropoff: OrderDropoff): string {
  return sealForTransport(key, dropoffContext(orderId), JSON.stringify(dropoff));
}

/** The drop-off, or throws when the value was not sealed with this key for this order. */
export function openOrderDropoff(key: Buffer, orderId: string, sealed: string): OrderDropoff {
  return JSON.parse(openFromTransport(key, dropoffContext(orderId), sealed)) as OrderDropoff;
}
