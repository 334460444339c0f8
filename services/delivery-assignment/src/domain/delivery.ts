import { ASSIGNMENT_STATUS, type AssignmentStatusName } from '@marketplace/contracts';
import type { DispatchPlan } from './dispatch/plan';
import type { PartnerRequest } from './partner-requests';

export { ASSIGNMENT_STATUS, type AssignmentStatusName };

/** The branch as it was at assignment (the Partner API's Branch pickup info, with its id). */
export interface Pickup {
  branchId: string;
  name: string;
  address: string;
  latitude: number;
  longitude: number;
  externalLocationId: string | null;
}

/** One assignment of an order to a delivery-provider installation. */
export interface Assignment {
  assignmentId: string;
  installationId: string;
  status: AssignmentStatusName;
  assignedAt: Date;
  /** When the installation accepted or rejected. */
  respondedAt: Date | null;
  /** When it became Rejected, Cancelled, Superseded or Terminated. */
  endedAt: Date | null;
  driverName: string | null;
  driverPhone: string | null;
  eta: Date | null;
  trackingUrl: string | null;
  pickup: Pickup;
}

/** What this service knows of the order (from the orders topic); statuses by name, as the topic has them. */
export interface OrderFacts {
  orderNumber: string;
  branchId: string;
  /** 1 Delivery, 2 Pickup (Partner API values). */
  orderMode: number;
  status: 'Pending' | 'Accepted' | 'Completed' | 'Rejected' | 'Cancelled';
  /**
   * What a delivery provider is told when the order is dispatched to a provider connection (the
   * contract's create request): 1 Cash, 2 CardOnDelivery; the totals in minor units; the drop-off
   * sealed by ordering-pricing (customer and address, opened only to build the request). Absent
   * on orders kept before they were copied: such an order cannot be dispatched to a connection.
   */
  paymentMethod?: number;
  currencyCode?: string;
  grandTotalMinor?: number;
  deliveryFeeMinor?: number;
  dropoffSealed?: string;
}

/**
 * An order's delivery: the order's facts, its live assignment and the ones that ended. One per
 * order, so that every change of the order's delivery (an assignment, a partner's action, the
 * order's own cancellation) is decided on one document and written with a compare-and-set on
 * `version`: two changes racing cannot both win.
 */
export interface Delivery {
  /** The order id. */
  _id: string;
  tenantId: string;
  order: OrderFacts;
  live: Assignment | null;
  /** Ended assignments, oldest first. */
  history: Assignment[];
  /** Grows with every write (compare-and-set). */
  version: number;
  /** Grows with every event published about the order's delivery (consumers keep the highest). */
  eventRevision: number;
  /**
   * The answers of the partner actions on this order, by installation and Idempotency-Key, until
   * their retention ends (domain/partner-requests.ts). Absent on deliveries no partner acted on.
   */
  partnerRequests?: PartnerRequest[];
  /** How the order was dispatched by the tenant's rules (rescue, the log of choices); absent when assigned by hand. */
  dispatchPlan?: DispatchPlan;
  createdAt: Date;
  updatedAt: Date;
}

/** Statuses in which an assignment is the order's live one: its holder acts on it and reads the order. */
export const LIVE_STATUSES: readonly AssignmentStatusName[] = ['Assigned', 'Accepted', 'InTransit', 'Delivered'];
/** Live and not finished: an order cancellation terminates these. */
export const ACTIVE_STATUSES: readonly AssignmentStatusName[] = ['Assigned', 'Accepted', 'InTransit'];

export const statusValue = (name: AssignmentStatusName): number => ASSIGNMENT_STATUS[name];
