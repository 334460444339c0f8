import type { CancelStage, Status } from '../../../src/model';
import { cancellationOutcome, returnOutcome } from './declaration';
import type { Defect } from './defects';
import { sign, type WebhookSender } from './webhooks';

/**
 * The sandbox courier: every step (stepMs) each moving delivery takes the next step of its plan.
 * A ride: provider_accepted → driver_assigned → arrived_at_pickup → picked_up → on_the_way →
 * delivered, several steps in some statuses so a test can catch it there. A held delivery
 * (preparation of 60 minutes or more, or scheduled more than an hour ahead) stays in
 * provider_accepted until cancelled. An accepted return: return_requested → returning_to_origin →
 * returned_to_origin.
 */

export interface Driver {
  name: string;
  phone: string;
  lat: number;
  lng: number;
}

export interface Delivery {
  id: string;
  trackingId: string;
  platformReference: string;
  callbackUrl: string | null;
  /** The delivery's fields as created, then as updated. */
  fields: Record<string, unknown>;
  status: Status;
  held: boolean;
  /** The steps still to take on its own. */
  plan: Step[];
  driver: Driver | null;
  trackingUrl: string;
  estimatedDeliveryAtUtc: string | null;
  /** eventTimeUtc of the latest event made: status and tracking reads are never older. */
  lastEventMs: number;
}

interface Step {
  status?: Status;
  events: string[];
  /** Where the driver is: 0 at the start, 0.5 at the pickup, 1 at the drop-off. */
  driverAt?: number;
  /** The defect `inventedStatus` slips its event in here. */
  invent?: boolean;
}

const RIDE: readonly Step[] = [
  { status: 'driver_assigned', events: ['driver.assigned'], driverAt: 0 },
  { events: ['driver.location_updated'], driverAt: 0.25 },
  { status: 'arrived_at_pickup', events: ['driver.arrived_at_pickup'], driverAt: 0.5 },
  { status: 'picked_up', events: ['delivery.picked_up'] },
  { events: ['eta.updated'] },
  { status: 'on_the_way', events: ['delivery.on_the_way'], driverAt: 0.6 },
  { events: ['driver.location_updated'], driverAt: 0.7 },
  { events: ['driver.location_updated', 'eta.updated'], driverAt: 0.8 },
  { events: ['driver.location_updated'], driverAt: 0.9, invent: true },
  { events: ['driver.location_updated'], driverAt: 1 },
  { status: 'delivered', events: ['delivery.delivered'] },
];
const RETURN: readonly Step[] = [
  { status: 'returning_to_origin', events: ['delivery.returning_to_origin'] },
  { events: ['driver.location_updated'], driverAt: 0.55 },
  { status: 'returned_to_origin', events: ['delivery.returned_to_origin'], driverAt: 0.5 },
];
export const newRide = (): Step[] => RIDE.map((step) => ({ ...step }));

const ETA_MINUTES = 25;
const inMinutes = (minutes: number): string => new Date(Date.now() + minutes * 60_000).toISOString();

export interface SandboxOptions {
  stepMs: number;
  defects: ReadonlySet<Defect>;
  sender: WebhookSender;
  webhookSecret: string;
}

export class Sandbox {
  readonly deliveries = new Map<string, Delivery>();
  private readonly timer: NodeJS.Timeout;
  private drivers = 0;

  constructor(private readonly options: SandboxOptions) {
    this.timer = setInterval(() => this.tick(), options.stepMs);
  }

  add(delivery: Delivery): void {
    this.deliveries.set(delivery.id, delivery);
    this.emit(delivery, 'delivery.accepted');
  }

  close(): void {
    clearInterval(this.timer);
  }

  /** Cancels as declared for the status it is in; a confirmed repeat changes nothing and sends nothing. */
  cancel(delivery: Delivery, stage: CancelStage): { confirmed: boolean; errorMessage?: string } {
    if (cancellationOutcome(delivery.status, stage) === 'refused') {
      return { confirmed: false, errorMessage: `cannot cancel ${stage} in status ${delivery.status}` };
    }
    if (delivery.status !== 'cancelled') {
      delivery.status = 'cancelled';
      delivery.plan = [];
      this.emit(delivery, 'delivery.cancelled');
    }
    return { confirmed: true };
  }

  /** Returns as declared; a return already under way (or done) is accepted again without a new event. */
  requestReturn(delivery: Delivery): { accepted: boolean; errorMessage?: string } {
    if (returnOutcome(delivery.status) === 'refused') {
      return { accepted: false, errorMessage: `cannot return in status ${delivery.status}` };
    }
    if (delivery.status === 'picked_up' || delivery.status === 'on_the_way') {
      delivery.status = 'return_requested';
      delivery.plan = RETURN.map((step) => ({ ...step }));
      this.emit(delivery, 'delivery.return_requested');
    }
    return { accepted: true };
  }

  private tick(): void {
    for (const delivery of this.deliveries.values()) {
      const step = delivery.held ? undefined : delivery.plan.shift();
      if (step !== undefined) this.take(delivery, step);
    }
  }

  private take(delivery: Delivery, step: Step): void {
    if (step.status === 'driver_assigned') this.assignDriver(delivery);
    if (step.driverAt !== undefined && delivery.driver !== null) this.moveDriver(delivery, step.driverAt);
    if (step.events.includes('eta.updated')) delivery.estimatedDeliveryAtUtc = inMinutes(delivery.plan.length);
    if (step.status !== undefined) delivery.status = step.status;
    for (const eventType of step.events) this.emit(delivery, eventType);
    if (step.invent === true && this.options.defects.has('inventedStatus')) {
      // Dated just before the event it follows, so the status read stays as new as every event.
      this.emit(delivery, 'tracking.updated', { status: 'en_route', timeMs: delivery.lastEventMs - 1 });
    }
    if (delivery.status === 'delivered' && this.options.defects.has('eventAfterTerminal')) {
      // A late location update: observed just before the delivery, sent after delivery.delivered.
      this.emit(delivery, 'driver.location_updated', { status: 'on_the_way', timeMs: delivery.lastEventMs - 1 });
    }
  }

  private assignDriver(delivery: Delivery): void {
    this.drivers += 1;
    const number = String(this.drivers).padStart(4, '0');
    delivery.driver = { name: `Sandbox Driver ${number}`, phone: `+351900${number}`, lat: 0, lng: 0 };
    delivery.estimatedDeliveryAtUtc = inMinutes(ETA_MINUTES);
  }

  /** Along a straight line: from a start 0.01° north of the pickup, to the pickup, to the drop-off. */
  private moveDriver(delivery: Delivery, at: number): void {
    const f = delivery.fields as { pickupLat: number; pickupLng: number; dropoffLat: number; dropoffLng: number };
    const [fromLat, fromLng, toLat, toLng, share] =
      at <= 0.5
        ? [f.pickupLat + 0.01, f.pickupLng, f.pickupLat, f.pickupLng, at / 0.5]
        : [f.pickupLat, f.pickupLng, f.dropoffLat, f.dropoffLng, (at - 0.5) / 0.5];
    const round = (value: number): number => Math.round(value * 1e6) / 1e6;
    delivery.driver!.lat = round(fromLat + (toLat - fromLat) * share);
    delivery.driver!.lng = round(fromLng + (toLng - fromLng) * share);
  }

  /**
   * Makes one event: its bytes and eventTimeUtc are fixed now, each later than the one before
   * (2 ms at least, so a defect can date an event between two). Nothing nonterminal follows a
   * terminal event unless a defect sends it.
   */
  private emit(delivery: Delivery, eventType: string, fault?: { status: string; timeMs: number }): void {
    let timeMs = fault?.timeMs;
    if (timeMs === undefined) {
      timeMs = Math.max(Date.now(), delivery.lastEventMs + 2);
      delivery.lastEventMs = timeMs;
    }
    if (delivery.callbackUrl === null) return;
    const body = Buffer.from(
      JSON.stringify(eventBody(delivery, eventType, fault?.status ?? delivery.status, timeMs)),
      'utf8',
    );
    const secret = this.options.defects.has('wrongSignature')
      ? `${this.options.webhookSecret}-other`
      : this.options.webhookSecret;
    this.options.sender.enqueue(delivery.id, delivery.callbackUrl, body, sign(body, secret));
  }
}

function eventBody(delivery: Delivery, eventType: string, status: string, timeMs: number): Record<string, unknown> {
  return {
    eventType,
    platformReference: delivery.platformReference,
    providerDeliveryId: delivery.id,
    providerTrackingId: delivery.trackingId,
    status,
    eventTimeUtc: new Date(timeMs).toISOString(),
    ...trackingFields(delivery),
  };
}

/** The tracking fields: null where nothing is known yet (never invented). */
export function trackingFields(delivery: Delivery): Record<string, unknown> {
  return {
    driverName: delivery.driver?.name ?? null,
    driverPhone: delivery.driver?.phone ?? null,
    driverLat: delivery.driver?.lat ?? null,
    driverLng: delivery.driver?.lng ?? null,
    trackingUrl: delivery.trackingUrl,
    estimatedDeliveryAtUtc: delivery.estimatedDeliveryAtUtc,
  };
}
