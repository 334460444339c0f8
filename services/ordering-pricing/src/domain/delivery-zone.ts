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
