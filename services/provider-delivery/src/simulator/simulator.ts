import type { AreaGeometry } from '@marketplace/geo';
import type { Logger } from '@marketplace/logging';
import type { SimulatorSettings } from '../domain/platform-account';
import { CourierApiError, CourierClient, type CourierMe, type DriverView } from './courier-client';
import {
  idleDriver,
  randomPointIn,
  simulatedIdentity,
  stepSimulatedDriver,
  type CourierCall,
  type SimDriverState,
} from './simulated-driver';

/**
 * The courier simulator (local setups, tests, the demo; SIMULATOR_ENABLED, and per account its
 * `simulator` setting). Simulated drivers take offers and ride their deliveries to the end on the
 * delivery's clock (`timeScale` times real time), so a whole lifecycle runs in seconds.
 *
 * - It is a client of this service's own HTTP API, not a second path into the use cases: the
 *   administrator API creates its drivers (simulated, online, at random points of the account's
 *   area), and each driver plays through the courier API as a driver app would. So everything it
 *   does goes through the same checks, events and estimates as a real driver's. Only the rate
 *   limits let it pass: its calls carry the process's random pass (`headers`), as 500 drivers on
 *   one address, polling every second, would spend any per-IP or per-administrator budget.
 * - The drivers' courier tokens live in this process's memory only. After a restart they are
 *   unknown, so each simulated driver found is given a new token (the old one stops at once).
 *   Hence one simulator per account: run it in one process, never in several replicas.
 * - Each driver is a pure state machine (simulated-driver.ts) stepped every tick: the server's
 *   status decides its phase, so a lost call is made again after the next poll.
 * - Every tick (`tickMs`, self-rescheduling, never overlapping) lists the accounts with the
 *   simulator on, brings each one's fleet to `simulator.drivers` (creating at most `concurrency`
 *   a tick, so a tick stays short; extra drivers go offline once idle, as do all of an account
 *   whose simulator was turned off), then steps every driver, `concurrency` at a time. Calls
 *   are spaced so 500 drivers stay cheap: one list of the account's drivers a tick (the administrator API; it shows each one's offer,
 *   as a push would reach a phone) tells which idle drivers have something to read, and only
 *   those call `GET /courier/v1/me` (an idle driver the list does not show polls it every
 *   `idlePollMs`); a busy driver polls every `busyPollMs`, and a riding one reports its position
 *   every `locationEveryMs` at most (a second). Offers are answered by a loop of their own
 *   (`offerPollMs`, 150 ms): one list of each account's drivers shows who holds a live offer, and
 *   those step at once, whatever the sweep is doing. Polling 500 idle drivers every 500 ms would be 1,000 reads a
 *   second, more than the local engine serves, and the scaled offers (45 s / timeScale) would run
 *   out unseen.
 * - Failures never stop the loop. A refused move (409: the delivery moved on, the offer ran out)
 *   is logged at debug; other failures at warn, summed up at most every 5 seconds. Simulated
 *   events are logged at debug. Never a token nor a phone number.
 */

/** What the simulator reads of an account (a PlatformAccount fits). */
export interface SimulatedAccount {
  id: string;
  serviceArea: AreaGeometry;
  simulator: SimulatorSettings;
}

export interface CourierSimulatorOptions {
  /** This service's own address, e.g. `http://127.0.0.1:4105`. */
  baseUrl: string;
  /** An administrator bearer token for this service (adminTokenSource). */
  adminToken: () => string;
  /** Headers sent with every call (the service's pass past its own rate limits). */
  headers?: Record<string, string>;
  /** The accounts with the simulator on (`store.accounts.listSimulated()`). */
  listAccounts: () => Promise<readonly SimulatedAccount[]>;
  logger: Logger;
  tickMs?: number;
  /**
   * How often the offers are looked for, apart from the sweep of every driver: an offer runs 45 s
   * on the delivery's clock (750 ms at 60 times faster), and a sweep of 500 riding drivers takes
   * seconds, so waiting for the next sweep would let most offers run out.
   */
  offerPollMs?: number;
  concurrency?: number;
  idlePollMs?: number;
  busyPollMs?: number;
  locationEveryMs?: number;
  requestTimeoutMs?: number;
  /** Longest wait of `stop` for the tick in flight. */
  stopTimeoutMs?: number;
  /** Where new drivers are placed (tests pass a seeded one). */
  random?: () => number;
}

interface SimDriver {
  id: string;
  /** Null when unknown (rejected: another token was minted); a new one is minted before the next step. */
  token: string | null;
  state: SimDriverState;
  polledAtMs: number;
  /** Poll at the next step: after an accept or a failed call. */
  refresh: boolean;
  /** A step of this driver is under way (the sweep and the offer loop never step it twice at once). */
  stepping: boolean;
}

interface Fleet {
  accountId: string;
  area: AreaGeometry;
  wanted: number;
  /** The drivers already registered were found and taken back (after a start). */
  adopted: boolean;
  /** The last number given to a driver (names and phones). */
  numbered: number;
  drivers: Map<string, SimDriver>;
  /** sim:decline: deliveries a driver of the account declined (only the first driver offered declines). */
  declined: Set<string>;
  /** This tick's list of the account's drivers; undefined when it failed (each driver polls alone). */
  listing: Map<string, DriverView> | undefined;
}

const MAX_DECLINES_REMEMBERED = 10_000;
const WARN_EVERY_MS = 5_000;

export class CourierSimulator {
  private readonly client: CourierClient;
  private readonly log: Logger;
  private readonly abort = new AbortController();
  private readonly fleets = new Map<string, Fleet>();
  private readonly config: Required<Omit<CourierSimulatorOptions, 'baseUrl' | 'logger' | 'headers'>>;
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> | undefined;
  private offerTimer: NodeJS.Timeout | undefined;
  private offersInFlight: Promise<void> | undefined;
  private started = false;
  private stopped = false;
  private live = false;
  private failures: { count: number; first?: { what: string; error: unknown; fields: object }; warnedAtMs: number } = {
    count: 0,
    warnedAtMs: 0,
  };

  constructor(options: CourierSimulatorOptions) {
    this.config = {
      adminToken: options.adminToken,
      listAccounts: options.listAccounts,
      tickMs: options.tickMs ?? 250,
      offerPollMs: options.offerPollMs ?? 150,
      concurrency: options.concurrency ?? 32,
      idlePollMs: options.idlePollMs ?? 500,
      busyPollMs: options.busyPollMs ?? 1_000,
      // The platform gets at most one location event every 5 s: a report a second is plenty.
      locationEveryMs: options.locationEveryMs ?? 1_000,
      requestTimeoutMs: options.requestTimeoutMs ?? 5_000,
      stopTimeoutMs: options.stopTimeoutMs ?? 5_000,
      random: options.random ?? Math.random,
    };
    this.log = options.logger.child({ component: 'courier-simulator' });
    this.client = new CourierClient({
      baseUrl: options.baseUrl,
      headers: options.headers,
      timeoutMs: this.config.requestTimeoutMs,
      signal: this.abort.signal,
    });
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.schedule(0);
    this.scheduleOffers();
  }

  /** Stops the timer, cuts the calls in flight and waits for the tick (at most stopTimeoutMs). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    clearTimeout(this.offerTimer);
    this.abort.abort();
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((resolve) => (timer = setTimeout(resolve, this.config.stopTimeoutMs)));
    await Promise.race([Promise.all([this.inFlight, this.offersInFlight]), bound]);
    clearTimeout(timer);
  }

  private schedule(delayMs: number): void {
    this.timer = setTimeout(() => {
      const began = Date.now();
      this.inFlight = this.tick()
        .catch((error) => this.failed('tick', error))
        .finally(() => {
          this.reportFailures();
          this.inFlight = undefined;
          if (!this.stopped) this.schedule(Math.max(0, this.config.tickMs - (Date.now() - began)));
        });
    }, delayMs);
    this.timer.unref();
  }

  /** The offer loop: every offerPollMs, the drivers holding a live offer step at once (they accept or decline). */
  private scheduleOffers(): void {
    this.offerTimer = setTimeout(() => {
      this.offersInFlight = this.answerOffers()
        .catch((error) => this.failed('looking for offers', error))
        .finally(() => {
          this.offersInFlight = undefined;
          if (!this.stopped) this.scheduleOffers();
        });
    }, this.config.offerPollMs);
    this.offerTimer.unref();
  }

  private async answerOffers(): Promise<void> {
    if (!this.live) return;
    const now = Date.now();
    const offered: { fleet: Fleet; d: SimDriver }[] = [];
    for (const fleet of this.fleets.values()) {
      if (!fleet.adopted || fleet.drivers.size === 0) continue;
      const views = await this.client.listDrivers(this.config.adminToken(), fleet.accountId);
      for (const view of views) {
        const d = fleet.drivers.get(view.id);
        const live = view.offer !== null && Date.parse(view.offer.expiresAt) > now;
        if (!d || !live || view.activeDeliveryId !== null || d.state.phase !== 'idle' || d.stepping) continue;
        d.refresh = true;
        offered.push({ fleet, d });
      }
    }
    await eachLimited(offered, this.config.concurrency, ({ fleet, d }) => this.step(fleet, d));
  }

  private async tick(): Promise<void> {
    // The simulator is set up before the HTTP server listens: nothing to do until it answers.
    if (!this.live) {
      this.live = await this.client.healthy().catch(() => false);
      if (!this.live) return;
      this.log.info('courier simulator running');
    }
    this.plan(await this.config.listAccounts());
    for (const fleet of this.fleets.values()) await this.manage(fleet);
    const drivers = [...this.fleets.values()].flatMap((fleet) =>
      [...fleet.drivers.values()].map((d) => ({ fleet, d })),
    );
    await eachLimited(drivers, this.config.concurrency, ({ fleet, d }) => this.step(fleet, d));
    for (const [id, fleet] of this.fleets) if (fleet.wanted === 0 && fleet.drivers.size === 0) this.fleets.delete(id);
  }

  /** How many drivers each account wants now: its setting, or none once its simulator is off. */
  private plan(accounts: readonly SimulatedAccount[]): void {
    const on = new Set<string>();
    for (const account of accounts) {
      if (!account.simulator.enabled) continue;
      on.add(account.id);
      const fleet = this.fleets.get(account.id) ?? {
        accountId: account.id,
        adopted: false,
        numbered: 0,
        drivers: new Map(),
        declined: new Set<string>(),
        listing: undefined,
        area: account.serviceArea,
        wanted: 0,
      };
      fleet.area = account.serviceArea;
      fleet.wanted = account.simulator.drivers;
      this.fleets.set(account.id, fleet);
    }
    for (const fleet of this.fleets.values()) if (!on.has(fleet.accountId)) fleet.wanted = 0;
  }

  private async manage(fleet: Fleet): Promise<void> {
    fleet.listing = undefined;
    try {
      if (!fleet.adopted && fleet.wanted > 0) await this.adopt(fleet);
      if (!fleet.adopted) return;
      await this.retire(fleet);
      await this.create(fleet);
      if (fleet.drivers.size === 0) return;
      const views = await this.client.listDrivers(this.config.adminToken(), fleet.accountId);
      fleet.listing = new Map(views.map((v) => [v.id, v]));
    } catch (error) {
      this.failed('managing the drivers', error, { accountId: fleet.accountId });
    }
  }

  /**
   * The simulated drivers registered before this process started: as many as wanted (online ones
   * first) get a new token and go online; the other online ones go offline, so no offer waits on a
   * driver nobody plays. Done once, until every call of it succeeded.
   */
  private async adopt(fleet: Fleet): Promise<void> {
    const views = (await this.client.listDrivers(this.config.adminToken(), fleet.accountId)).filter((v) => v.simulated);
    fleet.numbered = Math.max(fleet.numbered, views.length);
    const unknown = views
      .filter((v) => !fleet.drivers.has(v.id))
      .sort((a, b) => Number(b.online) - Number(a.online) || a.createdAt.localeCompare(b.createdAt));
    const room = Math.max(0, fleet.wanted - fleet.drivers.size);
    const work = [
      ...unknown.slice(0, room).map((view) => () => this.takeBack(fleet, view)),
      ...unknown
        .slice(room)
        .filter((v) => v.online)
        .map((v) => () => this.client.setDriverOnline(this.config.adminToken(), fleet.accountId, v.id, false)),
    ];
    let failed = 0;
    await eachLimited(work, this.config.concurrency, async (call) => {
      await call().catch((error) => {
        failed++;
        this.failed('taking back a driver', error, { accountId: fleet.accountId });
      });
    });
    fleet.adopted = failed === 0;
  }

  private async takeBack(fleet: Fleet, view: DriverView): Promise<void> {
    const token = await this.client.rotateDriverToken(this.config.adminToken(), fleet.accountId, view.id);
    if (!view.online) await this.client.setAvailability(token, true);
    let position = view.position ? { lat: view.position.lat, lng: view.position.lng } : null;
    if (!position) {
      position = randomPointIn(fleet.area, this.config.random);
      await this.client.reportLocation(token, position);
    }
    const state = idleDriver(position, new Date());
    fleet.drivers.set(view.id, { id: view.id, token, state, polledAtMs: 0, refresh: true, stepping: false });
    this.log.debug({ accountId: fleet.accountId, driverId: view.id }, 'simulated driver taken back');
  }

  /** Drivers beyond the wanted number go offline once idle (the newest first). */
  private async retire(fleet: Fleet): Promise<void> {
    const extra = fleet.drivers.size - fleet.wanted;
    if (extra <= 0) return;
    const idle = [...fleet.drivers.values()].filter((d) => d.state.phase === 'idle' && !d.refresh);
    await eachLimited(idle.reverse().slice(0, extra), this.config.concurrency, async (d) => {
      try {
        await this.client.setDriverOnline(this.config.adminToken(), fleet.accountId, d.id, false);
        fleet.drivers.delete(d.id);
        this.log.debug({ accountId: fleet.accountId, driverId: d.id }, 'simulated driver retired');
      } catch (error) {
        this.failed('retiring a driver', error, { accountId: fleet.accountId, driverId: d.id });
      }
    });
  }

  private async create(fleet: Fleet): Promise<void> {
    // A few a tick, so the tick stays short and the drivers already there keep taking their offers.
    const missing = Math.min(fleet.wanted - fleet.drivers.size, this.config.concurrency);
    if (missing <= 0) return;
    const numbers = Array.from({ length: missing }, () => ++fleet.numbered);
    await eachLimited(numbers, this.config.concurrency, async (n) => {
      const position = randomPointIn(fleet.area, this.config.random);
      try {
        const created = await this.client.createDriver(this.config.adminToken(), fleet.accountId, {
          ...simulatedIdentity(n),
          position,
        });
        const now = Date.now();
        fleet.drivers.set(created.driver.id, {
          id: created.driver.id,
          token: created.courierToken,
          state: idleDriver(position, new Date(now)),
          // Spread over the poll interval, so a fleet created at once does not poll at once.
          polledAtMs: now - this.config.random() * this.config.idlePollMs,
          refresh: false,
          stepping: false,
        });
        this.log.debug({ accountId: fleet.accountId, driverId: created.driver.id }, 'simulated driver created');
      } catch (error) {
        this.failed('creating a driver', error, { accountId: fleet.accountId });
      }
    });
  }

  /** One driver: a poll when due, a step of its state machine, its calls in order (stopping at the first failure). */
  private async step(fleet: Fleet, d: SimDriver): Promise<void> {
    if (this.stopped || d.stepping) return;
    d.stepping = true;
    const fields = { accountId: fleet.accountId, driverId: d.id };
    try {
      d.token ??= await this.client.rotateDriverToken(this.config.adminToken(), fleet.accountId, d.id);
      const token = d.token;
      const now = Date.now();
      let me: CourierMe | undefined;
      if (this.due(d, fleet.listing, now)) {
        me = await this.client.me(token);
        d.polledAtMs = now;
        d.refresh = false;
      }
      const input = { me, now: new Date(now), declined: fleet.declined, locationEveryMs: this.config.locationEveryMs };
      const { state, calls } = stepSimulatedDriver(d.state, input);
      d.state = state;
      for (const call of calls) await this.perform(fleet, d, token, call);
    } catch (error) {
      d.refresh = true;
      if (error instanceof CourierApiError && error.status === 401) d.token = null;
      this.failed('a driver step', error, fields);
    } finally {
      d.stepping = false;
    }
  }

  /** Whether the driver reads `GET /me` now: see the design above. */
  private due(d: SimDriver, listing: Map<string, DriverView> | undefined, now: number): boolean {
    if (d.refresh) return true;
    if (d.state.phase !== 'idle') return now - d.polledAtMs >= this.config.busyPollMs;
    const view = listing?.get(d.id);
    if (!view) return now - d.polledAtMs >= this.config.idlePollMs;
    return view.activeDeliveryId !== null || (view.offer !== null && Date.parse(view.offer.expiresAt) > now);
  }

  private async perform(fleet: Fleet, d: SimDriver, token: string, call: CourierCall): Promise<void> {
    const fields = { accountId: fleet.accountId, driverId: d.id };
    switch (call.kind) {
      case 'accept':
        d.refresh = true; // the next step reads the delivery taken
        await this.client.acceptOffer(token, call.providerDeliveryId);
        this.log.debug(
          { ...fields, providerDeliveryId: call.providerDeliveryId },
          'simulated driver accepted an offer',
        );
        return;
      case 'decline':
        remember(fleet.declined, call.providerDeliveryId);
        await this.client.declineOffer(token, call.providerDeliveryId);
        this.log.debug(
          { ...fields, providerDeliveryId: call.providerDeliveryId },
          'simulated driver declined an offer',
        );
        return;
      case 'location':
        await this.client.reportLocation(token, call.position);
        return;
      case 'event':
        await this.client.reportEvent(token, call.providerDeliveryId, call.eventType, call.reason);
        this.log.debug(
          { ...fields, providerDeliveryId: call.providerDeliveryId, eventType: call.eventType },
          'simulated driver reported',
        );
    }
  }

  /** A refused move is the race of a simulation (debug); anything else is counted for the next warning. */
  private failed(what: string, error: unknown, fields: object = {}): void {
    if (this.stopped) return;
    if (error instanceof CourierApiError && error.status === 409) {
      this.log.debug({ ...fields, err: error }, `courier simulator: ${what} refused`);
      return;
    }
    this.failures.count++;
    this.failures.first ??= { what, error, fields };
  }

  private reportFailures(): void {
    const { count, first, warnedAtMs } = this.failures;
    if (count === 0 || !first || this.stopped || Date.now() - warnedAtMs < WARN_EVERY_MS) return;
    this.log.warn(
      { ...first.fields, err: first.error, failures: count },
      `courier simulator: ${first.what} failed (${count} failure${count === 1 ? '' : 's'} since the last warning)`,
    );
    this.failures = { count: 0, warnedAtMs: Date.now() };
  }
}

function remember(declined: Set<string>, id: string): void {
  declined.add(id);
  // Oldest first (a Set keeps insertion order): an old delivery's offers are long over.
  if (declined.size > MAX_DECLINES_REMEMBERED) declined.delete(declined.values().next().value!);
}

/** Runs `work` over the items, at most `limit` at a time; `work` handles its own errors. */
async function eachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
