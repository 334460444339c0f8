import type {
  CourierDelivery,
  CourierOffer,
  CourierState as CourierStateBody,
  Driver as DriverBody,
} from '@marketplace/contracts';
import type { StoredDelivery } from '../domain/delivery';
import type { Driver } from '../domain/driver';
import { readyAt } from '../domain/eta';
import type { CourierState } from '../usecases/courier/read-courier-state';

/** The drivers' and the courier API's bodies. None ever carries a courier token or its hash. */

export const driverView = (d: Driver): DriverBody => ({
  id: d.id,
  accountId: d.accountId,
  name: d.name,
  phone: d.phone,
  vehicle: d.vehicle,
  shift: d.shift && { startsAtUtc: d.shift.startsAtUtc.toISOString(), endsAtUtc: d.shift.endsAtUtc.toISOString() },
  online: d.online,
  position: d.position && { lat: d.position.lat, lng: d.position.lng, at: d.position.at.toISOString() },
  activeDeliveryId: d.activeDeliveryId,
  offer: d.offer && { providerDeliveryId: d.offer.providerDeliveryId, expiresAt: d.offer.expiresAt.toISOString() },
  simulated: d.simulated,
  createdAt: d.createdAt.toISOString(),
  updatedAt: d.updatedAt.toISOString(),
});

const readyAtOf = (d: StoredDelivery): string =>
  readyAt(d.createdAt, d.order.preparationTimeMinutes, d.timeScale).toISOString();

export const offerView = (d: StoredDelivery, expiresAt: Date): CourierOffer => ({
  providerDeliveryId: d.id,
  expiresAt: expiresAt.toISOString(),
  pickup: { address: d.order.pickupAddress, lat: d.order.pickupLat, lng: d.order.pickupLng },
  dropoff: { lat: d.order.dropoffLat, lng: d.order.dropoffLng },
  readyAt: readyAtOf(d),
  notes: d.order.notes,
});

/** What the driver needs to deliver: where, when, the platform's notes; not the customer's name or phone. */
export const courierDeliveryView = (d: StoredDelivery): CourierDelivery => ({
  providerDeliveryId: d.id,
  status: d.status,
  pickup: { address: d.order.pickupAddress, lat: d.order.pickupLat, lng: d.order.pickupLng },
  dropoff: { address: d.order.dropoffAddress, lat: d.order.dropoffLat, lng: d.order.dropoffLng },
  notes: d.order.notes,
  readyAt: readyAtOf(d),
  timeScale: d.timeScale,
  estimatedDeliveryAtUtc: d.tracking.estimatedDeliveryAtUtc?.toISOString() ?? null,
});

export const courierStateView = (state: CourierState): CourierStateBody => ({
  driver: driverView(state.driver),
  offer: state.offer && state.driver.offer ? offerView(state.offer, state.driver.offer.expiresAt) : null,
  activeDelivery: state.activeDelivery && courierDeliveryView(state.activeDelivery),
});
