// The proof's own couriers: drivers of the demo platform account, driven by this script through
// provider-delivery's courier API as a driver app would (the service's courier simulator is off
// for the account), so that the callbacks the platform must get are derived from what the proof
// itself did, not from what provider-delivery says it published. Each courier polls its state,
// accepts the offer it holds and moves the delivery it carries one step a poll: at the pickup,
// picked up, on the way, delivered. A move the service took is recorded with when it was
// answered; a move whose answer was lost (the service killed mid-request) is recorded once the
// next poll shows the status it leads to.
//
// The contract's event table makes three of those moves callbacks with a known type and status:
// accepting (driver.assigned, driver_assigned), picking up (delivery.picked_up, picked_up) and
// delivering (delivery.delivered, delivered). `expectedCallbacks` lists them; lib/verify.mjs's
// courierCallbacks checks each one against the receiver.

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Each status the courier moves on from, and the move (a courier event type) it makes. */
const NEXT_MOVE = {
  driver_assigned: 'driver.arrived_at_pickup',
  arrived_at_pickup: 'delivery.picked_up',
  picked_up: 'delivery.on_the_way',
  on_the_way: 'delivery.delivered',
};
/** The status a move leads to. */
const STATUS_AFTER = {
  accept: 'driver_assigned',
  'driver.arrived_at_pickup': 'arrived_at_pickup',
  'delivery.picked_up': 'picked_up',
  'delivery.on_the_way': 'on_the_way',
  'delivery.delivered': 'delivered',
};
/** The moves the contract's event table turns into a callback of this type (and status). */
export const CALLBACK_OF_MOVE = {
  accept: { eventType: 'driver.assigned', status: 'driver_assigned' },
  'delivery.picked_up': { eventType: 'delivery.picked_up', status: 'picked_up' },
  'delivery.delivered': { eventType: 'delivery.delivered', status: 'delivered' },
};
const ORDER = ['accept', 'driver.arrived_at_pickup', 'delivery.picked_up', 'delivery.on_the_way', 'delivery.delivered'];

export class Couriers {
  /**
   * `client`: lib/client.mjs's; `providerUrl`: provider-delivery's address; `pickup`: where the
   * drivers wait ({ latitude, longitude }); `count` drivers, each polling every `everyMs`.
   */
  constructor({ client, providerUrl, accountId, adminToken, pickup, count = 6, everyMs = 1_000 }) {
    Object.assign(this, { client, providerUrl, accountId, adminToken, pickup, count, everyMs });
    /** providerDeliveryId -> Map(move -> when the proof knew it was made) */
    this.moves = new Map();
    this.drivers = [];
    this.running = false;
  }

  /** Creates the drivers (online, at the pickup) and starts their loops. */
  async start() {
    for (let i = 0; i < this.count; i++) {
      const answer = await this.client.until({
        url: `${this.providerUrl}/admin/v1/platform-accounts/${this.accountId}/drivers`,
        method: 'POST',
        headers: { authorization: `Bearer ${this.adminToken}` },
        body: JSON.stringify({
          name: `Proof Courier ${i + 1}`,
          phone: `+49 30 555 ${String(1000 + i)}`,
          vehicle: 'bicycle',
          position: { lat: this.pickup.latitude, lng: this.pickup.longitude },
          online: true,
          simulated: false,
          shift: null,
        }),
        via: ['provider-delivery'],
      });
      if (answer.status !== 201)
        throw new Error(`could not create a courier: ${answer.status ?? answer.error} ${answer.text?.slice(0, 300)}`);
      this.drivers.push({ token: answer.body.courierToken, phone: answer.body.driver.phone });
    }
    this.running = true;
    this.loops = this.drivers.map((driver, i) => this.loop(driver, i));
  }

  /** Stops polling once every delivery the couriers carry has been delivered, or after `timeoutMs`. */
  async stop(timeoutMs = 60_000) {
    const until = Date.now() + timeoutMs;
    while (Date.now() < until && this.carrying() > 0) await sleep(500);
    this.running = false;
    await Promise.all(this.loops ?? []);
  }

  /** Deliveries accepted and not yet delivered. */
  carrying() {
    return [...this.moves.values()].filter((m) => m.has('accept') && !m.has('delivery.delivered')).length;
  }

  /** The phone numbers of the proof's drivers (personal data the secrets audit looks for). */
  phones() {
    return this.drivers.map((d) => d.phone);
  }

  record(providerDeliveryId, move, at = Date.now()) {
    const moves = this.moves.get(providerDeliveryId) ?? new Map();
    if (!moves.has(move)) moves.set(move, at);
    this.moves.set(providerDeliveryId, moves);
  }

  /** A poll showed `status`: every move up to the one that leads to it was made (an answer lost on the way). */
  caughtUp(providerDeliveryId, status, at) {
    const upTo = ORDER.findIndex((move) => STATUS_AFTER[move] === status);
    for (const move of ORDER.slice(0, upTo + 1)) this.record(providerDeliveryId, move, at);
  }

  async loop(driver, i) {
    await sleep((this.everyMs * i) / this.count); // spread the polls
    const headers = { authorization: `Bearer ${driver.token}` };
    const call = (path, method = 'GET', body) =>
      this.client.send({
        url: `${this.providerUrl}/courier/v1${path}`,
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        via: ['provider-delivery'],
      });
    while (this.running) {
      const me = await call('/me');
      const at = Date.now();
      const carried = me.status === 200 ? me.body.activeDelivery : undefined;
      if (carried) {
        this.caughtUp(carried.providerDeliveryId, carried.status, at);
        const move = NEXT_MOVE[carried.status];
        if (move) {
          const sent = Date.now();
          const answer = await call(`/deliveries/${carried.providerDeliveryId}/events`, 'POST', { eventType: move });
          if (answer.status === 200) this.record(carried.providerDeliveryId, move, sent);
        }
      } else if (me.status === 200 && me.body.offer) {
        const id = me.body.offer.providerDeliveryId;
        const sent = Date.now();
        const answer = await call(`/offers/${id}/accept`, 'POST');
        if (answer.status === 200) this.record(id, 'accept', sent);
      }
      await sleep(this.everyMs);
    }
  }

  /**
   * The callbacks the platform must get, derived from the moves alone: for each delivery, one per
   * move the contract's table turns into a callback, with its type and status, and the time the
   * move was made (its callback cannot be older: its eventTimeUtc is when the provider saw it).
   */
  expectedCallbacks() {
    const expected = [];
    for (const [providerDeliveryId, moves] of this.moves)
      for (const [move, at] of moves) {
        const callback = CALLBACK_OF_MOVE[move];
        if (callback) expected.push({ providerDeliveryId, ...callback, madeAt: at });
      }
    return expected;
  }
}
