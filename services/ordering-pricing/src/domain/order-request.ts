import type { LineRequest } from './order-lines';

/** Spec: Create order request (shape checked by http/schemas.ts). */
export interface OrderRequest {
  branchId: string;
  orderMode: number;
  customerName: string;
  customerPhone: string;
  paymentMethod: number;
  lines: LineRequest[];
  externalOrderId: string;
  customerEmail?: string | null;
  customerNotes?: string | null;
  promotionCode?: string | null;
  deliveryZoneId?: string | null;
  deliveryAddress?: { label?: string | null; addressLine: string; latitude: number; longitude: number; notes?: string | null } | null;
  expectedTotal?: number | null;
}

/** Documented limits of an order (the spec leaves them to the service). */
export const ORDER_LIMITS = {
  lines: 50,
  quantity: 99,
  selectionsPerLine: 100,
  customerName: 100,
  customerEmail: 254,
  customerNotes: 500,
  lineNote: 200,
  externalOrderId: 128,
  promotionCode: 50,
  addressLine: 300,
  addressLabel: 100,
  addressNotes: 500,
} as const;

/**
 * Phone numbers: an optional leading `+`, then digits with optional spaces, dashes, dots or
 * parentheses between them; 6 to 15 digits in all (E.164 allows at most 15).
 */
export const PHONE_PATTERN = '^\\+?[0-9](?:[ .()-]*[0-9]){5,14}$';
