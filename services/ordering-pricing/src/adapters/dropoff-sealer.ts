import { sealOrderDropoff } from '@marketplace/identity';
import type { Order } from '../domain/order';

/**
 * Seals a Delivery order's drop-off under CUSTOMER_DATA_TRANSPORT_KEY, bound to the order; a
 * Pickup order has none. The field names are those of the provider contract's create request.
 */
export function dropoffSealer(key: Buffer): (order: Order) => string | undefined {
  return (order) => {
    const address = order.deliveryAddress;
    if (!address) return undefined;
    return sealOrderDropoff(key, order._id, {
      customerName: order.customer.name,
      customerPhone: order.customer.phone,
      addressLine: address.addressLine,
      latitude: address.latitude,
      longitude: address.longitude,
      addressNotes: address.notes,
      customerNotes: order.customer.notes,
    });
  };
}
