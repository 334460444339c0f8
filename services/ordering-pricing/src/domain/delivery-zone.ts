import type { AreaGeometry } from '@marketplace/geo';

/** An area a branch delivers to, with its fee and an optional minimum order. */
export interface DeliveryZone {
  id: string;
  tenantId: string;
  branchId: string;
  name: string;
  /** GeoJSON Polygon or MultiPolygon, [longitude, latitude] positions. */
  geometry: AreaGeometry;
  isActive: boolean;
  feeMinor: number;
  /** Smallest subtotal (before discounts) delivered to this zone, in minor units; null for none. */
  minimumOrderMinor: number | null;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * A zone as its repository stores it: the id as `_id`, and the geometry as JSON text (see
 * adapters/delivery-zones-repository.ts for why).
 */
export type StoredDeliveryZone = Omit<DeliveryZone, 'id' | 'geometry'> & { _id: string; geometryJson: string };

/** The zone a stored document holds. */
export function zoneOf(doc: StoredDeliveryZone): DeliveryZone {
  const { _id, geometryJson, ...rest } = doc;
  return { id: _id, geometry: JSON.parse(geometryJson) as AreaGeometry, ...rest };
}
