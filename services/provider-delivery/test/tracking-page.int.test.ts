import { randomBytes } from 'node:crypto';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_LAUNCH_BUDGET_MS, launchChromium, sleep, waitFor } from '@marketplace/testing';
import { createRequest, ProviderUnderTest, type TestAccount } from './support/provider';

// The public tracking page (a delivery's trackingUrl) in a real browser on a phone-sized screen:
// provider-delivery as a process on the real stack, a delivery moved through the operations API
// as a dispatcher reports it, and headless Chromium (Debian's package, installed by
// scripts/browser/chromium.sh) showing what the page redraws by itself, under its own
// Content-Security-Policy, without one request leaving its origin.

jest.setTimeout(120_000);

const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true };
/** The page refreshes every 2 seconds: a change shows within a few refreshes. */
const SHOWN_TIMEOUT_MS = 10_000;

const DRIVER = { driverName: 'Dana Driver', driverPhone: '+49 170 5550123' };
// Each delivery's request is this one with its own reference and idempotency key.
const request = createRequest();
// What the page must never show: the driver's phone and surname, the customer, the addresses,
// the platform's reference (every delivery's is added), the notes.
const NEVER_SHOWN = [
  DRIVER.driverPhone,
  '5550123',
  DRIVER.driverName,
  String(request.customerName),
  'Ada',
  String(request.customerPhone),
  '1234567',
  String(request.pickupAddress),
  String(request.dropoffAddress),
  'Kastanienallee',
  String(request.platformReference),
  String(request.notes),
];
const PICKUP = { lat: request.pickupLat as number, lng: request.pickupLng as number };
const DROPOFF = { lat: request.dropoffLat as number, lng: request.dropoffLng as number };

let provider: ProviderUnderTest | undefined;
let browser: Browser | undefined;
let account: TestAccount;

beforeAll(async () => {
  [provider, browser] = await Promise.all([
    ProviderUnderTest.start({ SIMULATOR_ENABLED: 'true' }),
    launchChromium(chromium),
  ]);
  account = await provider.account();
}, CHROMIUM_LAUNCH_BUDGET_MS);

afterAll(async () => {
  // Each on its own: a browser that fails to close must not leave the service running.
  await Promise.allSettled([browser?.close(), provider?.stop()]);
});

function service(): ProviderUnderTest {
  if (!provider) throw new Error('provider-delivery did not start (see beforeAll)');
  return provider;
}

async function newDelivery(): Promise<string> {
  const { platformReference, idempotencyKey } = createRequest();
  NEVER_SHOWN.push(String(platformReference));
  const res = await account.call('POST', '/deliveries', { ...request, platformReference, idempotencyKey });
  expect([res.status, res.body?.accepted]).toEqual([200, true]);
  return res.body.providerDeliveryId as string;
}

async function report(id: string, body: Record<string, unknown>): Promise<void> {
  const res = await service().report(account.id, id, body);
  expect([body.eventType, res.status, res.body?.code]).toEqual([body.eventType, 200, undefined]);
}

/** The delivery's trackingUrl as the platform reads it (set once a driver is assigned). */
function trackingUrlOf(id: string): Promise<string> {
  return waitFor(
    `GET /v1/deliveries/${id}/tracking to carry a trackingUrl after driver.assigned`,
    async () => {
      const res = await account.call('GET', `/deliveries/${id}/tracking`);
      return res.status === 200 && typeof res.body.trackingUrl === 'string' ? (res.body.trackingUrl as string) : false;
    },
    10_000,
  );
}

interface Seen {
  requests: string[];
  navigations: number;
  problems: string[];
}

/** Opens a phone-sized page recording its requests, its navigations, console errors and exceptions. */
async function visit(url: string) {
  const context = await browser!.newContext(PHONE);
  const page = await context.newPage();
  const seen: Seen = { requests: [], navigations: 0, problems: [] };
  page.on('request', (r) => seen.requests.push(r.url()));
  page.on('framenavigated', (frame) => void (frame === page.mainFrame() && seen.navigations++));
  // A CSP violation is a console error in Chromium: an inline script or style the policy refused.
  page.on('console', (m) => void (m.type() === 'error' && seen.problems.push(`console: ${m.text()}`)));
  page.on('pageerror', (e) => seen.problems.push(`exception: ${e.message}`));
  const response = await page.goto(url, { timeout: 15_000, waitUntil: 'load' });
  return { page, seen, response, close: () => context.close() };
}

/** Waits until `selector` is in the page; on timeout says what it waited for and what the page shows. */
async function shown(page: Page, selector: string, what: string, state: 'attached' | 'detached' = 'attached') {
  try {
    await page.locator(selector).waitFor({ state, timeout: SHOWN_TIMEOUT_MS });
  } catch {
    const text = await page
      .locator('main')
      .innerText({ timeout: 2_000 })
      .catch(() => '?');
    throw new Error(
      `waited ${SHOWN_TIMEOUT_MS / 1000} s for the page to show ${what} (${selector}); it shows:\n${text}`,
    );
  }
}

const driverMarker = (page: Page) =>
  page
    .locator('#driver-marker')
    .evaluateAll((nodes) => nodes.map((n) => ({ x: Number(n.getAttribute('cx')), y: Number(n.getAttribute('cy')) })));
const destinationMarker = (page: Page) =>
  page
    .locator('#destination-marker')
    .evaluate((n) => ({ x: Number(n.getAttribute('cx')), y: Number(n.getAttribute('cy')) }));

/** Waits for the driver marker to leave `from`, and answers where it is. */
function markerMoved(page: Page, from: { x: number; y: number }, what: string) {
  return waitFor(
    `the driver marker to move from (${from.x}, ${from.y}) after ${what}`,
    async () => {
      const [at] = await driverMarker(page);
      return at && (at.x !== from.x || at.y !== from.y) ? at : false;
    },
    SHOWN_TIMEOUT_MS,
    200,
  );
}

const distance = (a: { x: number; y: number }, b: { x: number; y: number }) => Math.hypot(a.x - b.x, a.y - b.y);

/** Asserts the page's HTML and visible text hold nothing of NEVER_SHOWN. */
async function expectNothingPrivate(page: Page, when: string): Promise<void> {
  const html = await page.content();
  const text = await page.locator('body').innerText();
  for (const secret of NEVER_SHOWN) {
    expect([when, secret, html.includes(secret), text.includes(secret)]).toEqual([when, secret, false, false]);
  }
}

/** A point `share` of the way from the pickup to the drop-off. */
const along = (share: number) => ({
  driverLat: PICKUP.lat + (DROPOFF.lat - PICKUP.lat) * share,
  driverLng: PICKUP.lng + (DROPOFF.lng - PICKUP.lng) * share,
});

describe('the public tracking page', () => {
  it('follows a delivery by itself on a phone: status, driver, map and estimate, then delivered', async () => {
    const id = await newDelivery();
    // Every position lies between the restaurant and the destination, so the map keeps one frame
    // and each move brings the marker closer to the destination's.
    await report(id, { eventType: 'driver.assigned', ...DRIVER, ...along(0.1) });
    const trackingUrl = await trackingUrlOf(id);
    expect(trackingUrl).toMatch(/\/track\/trk_[A-Za-z0-9_-]{22}$/);
    const origin = new URL(trackingUrl).origin;

    const { page, seen, response, close } = await visit(trackingUrl);
    try {
      expect(response?.status()).toBe(200);
      const headers = (await response?.allHeaders()) ?? {};
      expect(headers['content-type']).toBe('text/html; charset=utf-8');
      expect(headers['cache-control']).toBe('no-store');
      expect(headers['referrer-policy']).toBe('no-referrer');
      expect(headers['x-content-type-options']).toBe('nosniff');
      expect(headers['content-security-policy']).toContain("default-src 'none'");
      expect(headers['content-security-policy']).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'(;|$)/);
      expect(headers['content-security-policy']).toContain("connect-src 'self'");

      await shown(page, '#status[data-status="driver_assigned"]', 'the driver assigned');
      await shown(page, '#driver:text-is("Your driver: Dana")', "the driver's first name");
      await shown(page, '#driver-marker', 'the driver marker');
      expect(await page.locator('#pickup-marker').count()).toBe(1);
      expect(await page.locator('#destination-marker').count()).toBe(1);
      await expectNothingPrivate(page, 'driver assigned');

      // The rider approaches the drop-off: each position is drawn, closer to the destination.
      const destination = await destinationMarker(page);
      let at = (await driverMarker(page))[0]!;
      for (const [i, share] of [0.25, 0.45, 0.65].entries()) {
        if (i === 1) {
          await report(id, { eventType: 'delivery.picked_up' });
          await shown(page, '#status[data-status="picked_up"]', 'picked up');
        }
        await report(id, { eventType: 'driver.location_updated', ...along(share) });
        const next = await markerMoved(page, at, `the location update ${share} of the way`);
        expect(distance(next, destination)).toBeLessThan(distance(at, destination));
        at = next;
      }

      const eta = new Date(Date.now() + 12 * 60_000);
      await report(id, { eventType: 'eta.updated', estimatedDeliveryAtUtc: eta.toISOString() });
      await shown(page, `#eta[data-eta="${eta.toISOString()}"]`, 'the estimate');
      expect(await page.locator('#eta').innerText()).toMatch(/^Arriving around .+ \(in 1[12] min\)$/);

      await report(id, { eventType: 'delivery.on_the_way' });
      await shown(page, '#status[data-status="on_the_way"]', 'on the way');
      expect(await page.locator('#status').innerText()).toBe('On the way to you');
      await report(id, { eventType: 'driver.location_updated', ...along(0.9) });
      at = await markerMoved(page, at, 'the location update 0.9 of the way');
      expect(await page.locator('#driver').innerText()).toBe('Your driver: Dana');
      await expectNothingPrivate(page, 'on the way');

      await report(id, { eventType: 'delivery.delivered' });
      await shown(page, 'body[data-terminal="true"] #status[data-status="delivered"]', 'delivered');
      expect(await page.locator('#status').innerText()).toBe('Delivered');
      await shown(page, '#driver-marker', 'no driver marker', 'detached');
      expect(await page.locator('#driver').isHidden()).toBe(true);
      expect(await page.locator('#eta').isHidden()).toBe(true);
      expect(await page.locator('#eta').textContent()).toBe('');
      await expectNothingPrivate(page, 'delivered');

      // All of it came from the page's own refreshes: one navigation, many state requests.
      expect(seen.navigations).toBe(1);
      const states = () => seen.requests.filter((url) => url === `${trackingUrl}/state`).length;
      expect(states()).toBeGreaterThanOrEqual(5);
      expect(Number(await page.locator('body').getAttribute('data-refreshes'))).toBeGreaterThanOrEqual(5);
      // A terminal status is final: the page stops asking.
      const afterDelivered = states();
      await sleep(4_500);
      expect(states()).toBe(afterDelivered);

      expect(seen.requests.filter((url) => !url.startsWith('data:') && new URL(url).origin !== origin)).toEqual([]);
      expect(seen.problems).toEqual([]);
    } finally {
      await close();
    }
    // The token is the capability: the access log shows the route with it redacted.
    expect(service().process.output()).not.toContain(new URL(trackingUrl).pathname.split('/').pop());
  });

  it('shows a simulated delivery as its driver rides: the marker moves, the statuses follow, then delivered', async () => {
    // A simulated account: its drivers are the courier simulator's, on a clock 60 times faster.
    const simulated = await service().account({ simulator: { enabled: true, drivers: 3, timeScale: 60 } });
    const created = await simulated.call('POST', '/deliveries', createRequest({ preparationTimeMinutes: 5 }));
    const id = created.body.providerDeliveryId as string;
    const trackingUrl = await waitFor(
      'a simulated driver to take the delivery (its trackingUrl)',
      async () => (await simulated.call('GET', `/deliveries/${id}/tracking`)).body.trackingUrl ?? false,
      60_000,
      200,
    );
    const { page, seen, close } = await visit(trackingUrl);
    try {
      const statuses = new Set<string>();
      const positions = new Set<string>();
      await waitFor(
        'the page to show the simulated delivery delivered',
        async () => {
          const status = await page.locator('#status').getAttribute('data-status');
          if (status) statuses.add(status);
          const [at] = await driverMarker(page);
          if (at) positions.add(`${at.x},${at.y}`);
          if (status && status !== 'delivered') {
            const driver = await page.locator('#driver').innerText();
            expect(driver).toMatch(/^Your driver: [A-Z][a-z]+$/);
          }
          return status === 'delivered';
        },
        120_000,
        250,
      );
      // The page saw the driver at several places and the delivery go through its statuses.
      expect(positions.size).toBeGreaterThanOrEqual(3);
      expect([...statuses]).toEqual(expect.arrayContaining(['on_the_way', 'delivered']));
      await shown(page, '#driver-marker', 'no driver marker', 'detached');
      expect(await page.locator('#eta').isHidden()).toBe(true);
      expect(seen.navigations).toBe(1);
      const html = await page.content();
      expect(html).not.toMatch(/\+49 170 0000/); // the simulated drivers' phones
      expect(html).not.toContain(String(created.body.customerName ?? 'Ada Customer'));
      expect(seen.problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('serves the state as JSON with nothing private in it', async () => {
    const id = await newDelivery();
    await report(id, { eventType: 'driver.assigned', ...DRIVER, ...along(0.2) });
    const res = await fetch(`${await trackingUrlOf(id)}/state`, { signal: AbortSignal.timeout(10_000) });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const text = await res.text();
    for (const secret of NEVER_SHOWN) expect([secret, text.includes(secret)]).toEqual([secret, false]);
    expect(JSON.parse(text)).toEqual({
      status: 'driver_assigned',
      statusText: expect.any(String),
      terminal: false,
      driverFirstName: 'Dana',
      driverPosition: { lat: along(0.2).driverLat, lng: along(0.2).driverLng },
      pickup: PICKUP,
      destination: { lat: 52.538, lng: 13.409 },
      estimatedDeliveryAtUtc: null,
      updatedAtUtc: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      servedAtUtc: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
    });
  });

  it('answers 404 for an unknown or malformed token: a page for the page, the envelope for the state', async () => {
    const get = (path: string) => fetch(service().url + path, { signal: AbortSignal.timeout(10_000) });
    for (const token of [`trk_${randomBytes(16).toString('base64url')}`, 'nope', 'trk_short', 'trk_%41%42']) {
      const page = await get(`/track/${token}`);
      expect([token, page.status, page.headers.get('content-type')]).toEqual([token, 404, 'text/html; charset=utf-8']);
      expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(page.headers.get('cache-control')).toBe('no-store');
      expect(await page.text()).toContain('This tracking link does not work');

      const state = await get(`/track/${token}/state`);
      expect([token, state.status, state.headers.get('content-type')]).toEqual([
        token,
        404,
        'application/json; charset=utf-8',
      ]);
      expect(await state.json()).toEqual({ code: 'resource.not_found', message: expect.any(String), retryable: false });
    }
    // A path with an encoded dot is refused before routing, in the service's error envelope.
    const dotted = await get('/track/trk_%2e%2e');
    expect(dotted.status).toBe(400);
    expect(await dotted.json()).toMatchObject({ code: 'request.path_invalid', retryable: false });
  });
});
