// Steady traffic while the faults happen, and what it was promised:
// - orders through the gateway (the demo order source's key): each with its own Idempotency-Key
//   and externalOrderId, repeated until answered; every fourth then cancelled by its source
//   (orders.cancelled), every fourth (offset by one) assigned by the tenant to the demo delivery
//   provider, accepted, moved to InTransit and Delivered (delivery.assigned);
// - deliveries created on provider-delivery by the demo platform account, which the simulated
//   couriers then carry to their end (every status a callback).
// Every acknowledged request is kept with its key, body and answer, for the checks and the replays.

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const ASSIGNMENT = { InTransit: 4, Delivered: 5 };

export class Traffic {
  constructor({ client, cluster, fixture, tag, ordersPerSecond, deliveriesPerSecond, readsPerSecond = 0 }) {
    Object.assign(this, { client, cluster, fixture, tag, ordersPerSecond, deliveriesPerSecond, readsPerSecond });
    this.orders = [];
    this.deliveries = [];
    /** Follow-ups (cancel, assign and move) with what they expect to be sent. */
    this.cancels = [];
    this.assignments = [];
    /** Requests that were refused for good (a 4xx that no retry changes), by kind and code. */
    this.refused = [];
    this.running = false;
    this.pending = new Set();
    this.n = 0;
    this.reads = 0;
  }

  get gateway() {
    return this.cluster.url('gateway-auth');
  }

  get provider() {
    return this.cluster.url('provider-delivery');
  }

  start() {
    this.running = true;
    this.loops = [
      this.loop(this.ordersPerSecond, () => this.order()),
      this.loop(this.deliveriesPerSecond, () => this.delivery()),
      ...(this.readsPerSecond > 0 ? [this.loop(this.readsPerSecond, () => this.read())] : []),
    ];
  }

  /** Stops starting new work; waits (bounded by the client's own deadlines) for what was started. */
  async stop() {
    this.running = false;
    await Promise.all(this.loops);
    await Promise.all(this.pending);
  }

  async loop(perSecond, work) {
    const every = 1000 / perSecond;
    let next = Date.now();
    while (this.running) {
      const task = work().catch((error) => this.refused.push({ kind: 'crash', code: String(error?.stack ?? error) }));
      this.pending.add(task);
      void task.finally(() => this.pending.delete(task));
      next += every;
      await sleep(Math.max(0, next - Date.now()));
    }
  }

  orderRequest(n) {
    const { fixture } = this;
    const zone = fixture.deliveryZones[0];
    const key = `proof-${this.tag}-order-${n}`;
    const body = JSON.stringify({
      branchId: fixture.proof.branchId,
      orderMode: 1,
      customerName: 'Proof Customer',
      customerPhone: '+49 30 555 0199',
      paymentMethod: 1,
      externalOrderId: `proof-${this.tag}-ext-${n}`,
      deliveryZoneId: zone.id,
      deliveryAddress: { label: null, addressLine: 'Torstraße 10', ...zone.inside },
      lines: [
        { productId: fixture.proof.productId, variantId: fixture.proof.variantId, quantity: 6, modifierSelections: [] },
      ],
    });
    return {
      url: `${this.gateway}/api/partner/v1/orders`,
      method: 'POST',
      headers: {
        authorization: `ApiKey ${this.fixture.installations.orderSource.apiKey}`,
        'idempotency-key': key,
      },
      body,
      via: ['gateway-auth', 'ordering-pricing'],
    };
  }

  async order() {
    const n = ++this.n;
    const at = Date.now();
    const request = this.orderRequest(n);
    const answer = await this.client.until(request);
    const record = {
      n,
      at,
      key: request.headers['idempotency-key'],
      externalOrderId: JSON.parse(request.body).externalOrderId,
    };
    if (answer.status !== 201) {
      if (!this.refused.some((r) => r.kind === 'order'))
        console.log(`first refused order: ${answer.status ?? answer.error} ${answer.body?.code ?? ''}`);
      this.refused.push({
        kind: 'order',
        n,
        status: answer.status ?? answer.error,
        code: answer.body?.code,
        errors: answer.body?.errors,
      });
      this.orders.push({ ...record, acknowledged: false });
      return;
    }
    const order = { ...record, acknowledged: true, orderId: answer.body.orderId, status: 201, text: answer.text };
    this.orders.push(order);
    if (n % 4 === 1) await this.cancel(order);
    else if (n % 4 === 2) await this.assignAndDeliver(order);
  }

  async cancel(order) {
    const answer = await this.client.until({
      url: `${this.gateway}/api/partner/v1/orders/${order.orderId}/cancel`,
      method: 'POST',
      headers: {
        authorization: `ApiKey ${this.fixture.installations.orderSource.apiKey}`,
        'idempotency-key': `${order.key}-cancel`,
      },
      via: ['gateway-auth', 'ordering-pricing'],
    });
    if (answer.status === 200) this.cancels.push({ orderId: order.orderId });
    else
      this.refused.push({ kind: 'cancel', n: order.n, status: answer.status ?? answer.error, code: answer.body?.code });
  }

  async assignAndDeliver(order) {
    const provider = this.fixture.installations.deliveryProvider;
    // delivery-assignment learns of the order from Kafka: until its copy has it, 404 or 503.
    const assigned = await this.client.until(
      {
        url: `${this.gateway}/api/tenant/v1/deliveries/${order.orderId}/assign`,
        method: 'POST',
        headers: { authorization: `Bearer ${this.fixture.tenantApi.token}` },
        body: JSON.stringify({ installationId: provider.installationId }),
        via: ['gateway-auth', 'delivery-assignment'],
      },
      { retryAlso: (o) => o.status === 404 },
    );
    if (assigned.status !== 201 && assigned.status !== 200) {
      this.refused.push({
        kind: 'assign',
        n: order.n,
        status: assigned.status ?? assigned.error,
        code: assigned.body?.code,
      });
      return;
    }
    const record = { orderId: order.orderId, moved: [] };
    this.assignments.push(record);
    const partner = (path, method, suffix, body) =>
      this.client.until(
        {
          url: `${this.gateway}/api/partner/v1/deliveries/${order.orderId}${path}`,
          method,
          headers: { authorization: `ApiKey ${provider.apiKey}`, 'idempotency-key': `${order.key}-${suffix}` },
          body,
          via: ['gateway-auth', 'delivery-assignment'],
        },
        // The provider's copy of its assignment may lag the tenant's answer by a moment.
        { retryAlso: (o) => o.status === 404 },
      );
    for (const [path, method, suffix, body] of [
      ['/accept', 'POST', 'accept', undefined],
      ['/status', 'PATCH', 'transit', JSON.stringify({ targetStatus: ASSIGNMENT.InTransit })],
      ['/status', 'PATCH', 'delivered', JSON.stringify({ targetStatus: ASSIGNMENT.Delivered })],
    ]) {
      const answer = await partner(path, method, suffix, body);
      if (answer.status !== 200) {
        this.refused.push({
          kind: `delivery ${suffix}`,
          n: order.n,
          status: answer.status ?? answer.error,
          code: answer.body?.code,
        });
        return;
      }
      record.moved.push(suffix);
    }
  }

  deliveryRequest(n) {
    const { pickup, dropoff } = this.fixture.proof;
    const reference = `proof-${this.tag}-delivery-${n}`;
    return {
      url: `${this.provider}/v1/deliveries`,
      method: 'POST',
      headers: { authorization: `Bearer ${this.fixture.provider.apiKey}`, 'idempotency-key': reference },
      body: JSON.stringify({
        platformReference: reference,
        idempotencyKey: reference,
        pickupAddress: 'Demo Bistro Mitte, Berlin',
        pickupLat: pickup.latitude,
        pickupLng: pickup.longitude,
        customerName: 'Proof Customer',
        customerPhone: '+49 30 555 0199',
        dropoffAddress: 'Torstraße 10, Berlin',
        dropoffLat: dropoff.latitude,
        dropoffLng: dropoff.longitude,
        paymentMethod: 'card',
        amount: 23.5,
        deliveryFeeAmount: 2.99,
        currency: 'EUR',
        notes: null,
        preparationTimeMinutes: 0,
      }),
      via: ['provider-delivery'],
    };
  }

  async delivery() {
    const n = ++this.n;
    const at = Date.now();
    const request = this.deliveryRequest(n);
    const answer = await this.client.until(request);
    const reference = request.headers['idempotency-key'];
    if ((answer.status !== 201 && answer.status !== 200) || answer.body?.accepted === false) {
      this.refused.push({
        kind: 'provider delivery',
        n,
        status: answer.status ?? answer.error,
        code: answer.body?.code,
      });
      this.deliveries.push({ n, at, reference, acknowledged: false });
      return;
    }
    this.deliveries.push({
      n,
      at,
      reference,
      acknowledged: true,
      providerDeliveryId: answer.body.providerDeliveryId,
      status: answer.status,
      text: answer.text,
    });
  }

  /** Whether there is something of each kind to read (an order, an assignment, a provider delivery). */
  readable() {
    return (
      this.orders.some((o) => o.acknowledged) &&
      this.assignments.length > 0 &&
      this.deliveries.some((d) => d.acknowledged)
    );
  }

  /**
   * The read lane of the mixed traffic: one read of something the traffic made, through a service
   * the run picks in turn (each service's reads: a menu, an order, an assignment, a webhook log, a
   * provider delivery's status). Sent once: a refused read is a refusal the verdict counts.
   */
  async read() {
    const names = ['catalog', 'ordering-pricing', 'delivery-assignment', 'webhook-sender', 'provider-delivery'];
    const wanted = names[this.reads++ % names.length];
    // Until there is something of its kind to read, a service's turn goes to the menu.
    const has = {
      'ordering-pricing': () => this.orders.some((o) => o.acknowledged),
      'delivery-assignment': () => this.assignments.length > 0,
      'provider-delivery': () => this.deliveries.some((d) => d.acknowledged),
    };
    const name = has[wanted] && !has[wanted]() ? 'catalog' : wanted;
    const answer = await this.client.send(this.readRequest(name));
    if (answer.status !== undefined && answer.status !== 200 && answer.status < 500)
      this.refused.push({ kind: 'read', status: answer.status, code: answer.body?.code });
  }

  /** A read through `name` (and the gateway, but for provider-delivery, which partners call directly). */
  readRequest(name) {
    const orders = this.orders.filter((o) => o.acknowledged);
    const pick = (list) => list[Math.floor(Math.random() * list.length)];
    const orderSource = { authorization: `ApiKey ${this.fixture.installations.orderSource.apiKey}` };
    const tenant = { authorization: `Bearer ${this.fixture.tenantApi.token}` };
    const deliveries = this.deliveries.filter((d) => d.acknowledged);
    return {
      catalog: () => ({
        url: `${this.gateway}/api/partner/v1/catalog/branches/${this.fixture.proof.branchId}/products`,
        headers: orderSource,
        via: ['gateway-auth', 'catalog'],
      }),
      'ordering-pricing': () => ({
        url: `${this.gateway}/api/partner/v1/orders/${pick(orders).orderId}`,
        headers: orderSource,
        via: ['gateway-auth', 'ordering-pricing'],
      }),
      'delivery-assignment': () => ({
        url: `${this.gateway}/api/tenant/v1/deliveries/${pick(this.assignments).orderId}`,
        headers: tenant,
        via: ['gateway-auth', 'delivery-assignment'],
      }),
      'webhook-sender': () => ({
        url: `${this.gateway}/api/tenant/v1/webhooks/installations/${this.fixture.installations.orderSource.installationId}/deliveries`,
        headers: tenant,
        via: ['gateway-auth', 'webhook-sender'],
      }),
      'provider-delivery': () => ({
        url: `${this.provider}/v1/deliveries/${pick(deliveries).providerDeliveryId}/status`,
        headers: { authorization: `Bearer ${this.fixture.provider.apiKey}` },
        via: ['provider-delivery'],
      }),
      'gateway-auth': () => ({
        url: `${this.gateway}/api/partner/v1/orders/${pick(orders).orderId}`,
        headers: orderSource,
        via: ['gateway-auth', 'ordering-pricing'],
      }),
    }[name]();
  }

  /**
   * Reads through `name` kept in flight: `count` lanes, each sending its next request as soon as
   * the last one is answered, until `stop()`. The caller marks what is in flight (client.signal),
   * stops the lanes at once (no request starts after the mark) and sends the SIGTERM; `done`
   * resolves when the marked requests have ended. Lanes, not one volley: a volley of fast reads
   * could all be answered before the signal (a quiet machine answered 16 status reads in under
   * 15 ms), leaving a SIGTERM that proves nothing about requests in flight. Reads only: what they
   * must show is that a stopping process finishes what it has started.
   */
  burst(name, count = 16) {
    if (!this.readable()) throw new Error('no acknowledged order to read in the burst');
    const request = () => this.readRequest(name);
    let sending = true;
    const lane = async () => {
      while (sending) await this.client.send(request());
    };
    const done = Promise.all(Array.from({ length: count }, lane));
    return {
      stop: () => {
        sending = false;
      },
      done,
    };
  }

  /**
   * Sends the last `count` acknowledged orders and provider deliveries again, same key and body:
   * the answer must be the original one (orders: the same status and the same bytes; deliveries:
   * the same providerDeliveryId), also after the process that gave it was killed.
   */
  async replay(count, results) {
    const orders = this.orders.filter((o) => o.acknowledged).slice(-count);
    const deliveries = this.deliveries.filter((d) => d.acknowledged).slice(-count);
    await Promise.all([
      ...orders.map(async (o) => {
        const again = await this.client.until(this.orderRequest(o.n));
        const same = again.status === o.status && again.text === o.text;
        results.push({ kind: 'order', key: o.key, same, got: same ? undefined : `${again.status ?? again.error}` });
      }),
      ...deliveries.map(async (d) => {
        const again = await this.client.until(this.deliveryRequest(d.n));
        const same =
          again.body?.providerDeliveryId === d.providerDeliveryId && (again.status === 200 || again.status === 201);
        results.push({
          kind: 'provider delivery',
          key: d.reference,
          same,
          got: same ? undefined : `${again.status ?? again.error}`,
        });
      }),
    ]);
  }
}
