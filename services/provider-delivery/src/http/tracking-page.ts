import { createHash } from 'node:crypto';
import type { PublicTrackingView } from '../domain/tracking-view';

/**
 * The public tracking page: one self-contained HTML document (inline style, one inline script,
 * nothing fetched but its own `<page>/state`), built for a phone screen. The script redraws the
 * status, the driver's first name, the estimate and a map every 2 seconds; map tiles would be a
 * third party seeing who tracks what (and cannot be fetched offline), so the map is a plain SVG
 * canvas: the restaurant, the area of the destination, the straight route and the driver.
 */

const STYLE = `
:root { color-scheme: light; font-family: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; }
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body { margin: 0; background: #f4f5f7; color: #1d2330; }
main { max-width: 34rem; margin: 0 auto; padding: 1rem 1rem calc(1rem + env(safe-area-inset-bottom)); }
h1 { font-size: 1.4rem; line-height: 1.3; margin: 0.25rem 0 0.75rem; overflow-wrap: anywhere; }
p { margin: 0.3rem 0; font-size: 1.05rem; overflow-wrap: anywhere; }
#map { display: block; width: 100%; height: auto; margin: 0.75rem 0; border-radius: 12px; background: #e3e8ec; }
#route { stroke: #7a8699; stroke-width: 3; stroke-dasharray: 6 6; stroke-linecap: round; }
#destination-area { fill: #2e7d32; fill-opacity: 0.18; }
#pickup-marker, .dot.pickup { fill: #1d2330; background: #1d2330; }
#destination-marker, .dot.destination { fill: #2e7d32; background: #2e7d32; }
#driver-marker, .dot.driver { fill: #d84315; background: #d84315; }
#pickup-marker, #destination-marker, #driver-marker { stroke: #fff; stroke-width: 3; }
.legend { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 0.4rem 1rem; font-size: 0.9rem; color: #4a5262; }
.dot { display: inline-block; width: 0.75rem; height: 0.75rem; border-radius: 50%; margin-right: 0.35rem; vertical-align: -0.05rem; }
.muted { font-size: 0.85rem; color: #5c6473; }
#notice { background: #fff3cd; padding: 0.5rem 0.75rem; border-radius: 8px; font-size: 0.95rem; }
`;

/**
 * The page's script. It builds the state's address from its own (so the service may sit under a
 * path prefix, and a trailing slash does not break it), writes only text (textContent, never
 * HTML), waits for each answer before planning the next refresh (no pile-up on a slow network),
 * after a 429 waits its Retry-After (at most a minute), pauses while the page is hidden, and stops
 * at a terminal status, which never changes again.
 * "In N min" is counted on the server's clock (`servedAtUtc`), not the phone's, which may be off.
 */
const SCRIPT = `
'use strict';
(function () {
  var REFRESH_MS = 2000;
  var W = 320, H = 240, PAD = 28;
  // Two points a few metres apart would otherwise fill the canvas: show at least ~200 m.
  var MIN_SPAN_DEG = 0.002;
  // The destination is rounded to 3 decimals (±56 m of latitude): draw it as an area, not a pin.
  var AREA_METRES = 70;
  var SVG_NS = 'http://www.w3.org/2000/svg';
  var stateUrl = location.pathname.replace(/\\/+$/, '') + '/state';
  var skewMs = 0;
  var refreshes = 0;
  var timer = null;
  var delayMs = REFRESH_MS;
  var busy = false;
  var stopped = false;

  function el(id) { return document.getElementById(id); }
  function show(node, text) { node.textContent = text; node.hidden = !text; }
  function clock(iso, seconds) {
    var options = { hour: '2-digit', minute: '2-digit' };
    if (seconds) options.second = '2-digit';
    return new Date(iso).toLocaleTimeString([], options);
  }

  // Equirectangular around the points' mean latitude (exact enough at a city's scale), fitted
  // into the canvas with padding and one scale for both axes, so the route keeps its shape.
  function projection(points) {
    var lat0 = points.reduce(function (s, p) { return s + p.lat; }, 0) / points.length;
    var k = Math.cos((lat0 * Math.PI) / 180);
    var xs = points.map(function (p) { return p.lng * k; });
    var ys = points.map(function (p) { return -p.lat; });
    var minX = Math.min.apply(null, xs), maxX = Math.max.apply(null, xs);
    var minY = Math.min.apply(null, ys), maxY = Math.max.apply(null, ys);
    var scale = Math.min((W - 2 * PAD) / Math.max(maxX - minX, MIN_SPAN_DEG), (H - 2 * PAD) / Math.max(maxY - minY, MIN_SPAN_DEG));
    var midX = (minX + maxX) / 2, midY = (minY + maxY) / 2;
    function to(p) { return { x: W / 2 + (p.lng * k - midX) * scale, y: H / 2 + (-p.lat - midY) * scale }; }
    to.metres = function (m) { return (m / 111320) * scale; };
    return to;
  }

  function place(node, point) {
    node.setAttribute('cx', point.x.toFixed(1));
    node.setAttribute('cy', point.y.toFixed(1));
  }

  function drawMap(view) {
    var points = [view.pickup, view.destination];
    if (view.driverPosition) points.push(view.driverPosition);
    var to = projection(points);
    var a = to(view.pickup), b = to(view.destination);
    var route = el('route');
    route.setAttribute('x1', a.x.toFixed(1));
    route.setAttribute('y1', a.y.toFixed(1));
    route.setAttribute('x2', b.x.toFixed(1));
    route.setAttribute('y2', b.y.toFixed(1));
    place(el('pickup-marker'), a);
    place(el('destination-marker'), b);
    place(el('destination-area'), b);
    el('destination-area').setAttribute('r', Math.max(6, to.metres(AREA_METRES)).toFixed(1));
    var driver = el('driver-marker');
    el('legend-driver').hidden = !view.driverPosition;
    if (!view.driverPosition) {
      if (driver) driver.remove();
      return;
    }
    if (!driver) {
      driver = document.createElementNS(SVG_NS, 'circle');
      driver.setAttribute('id', 'driver-marker');
      driver.setAttribute('data-testid', 'driver-marker');
      driver.setAttribute('r', '9');
      el('markers').appendChild(driver);
    }
    place(driver, to(view.driverPosition));
  }

  function renderEta(view) {
    var eta = el('eta');
    if (!view.estimatedDeliveryAtUtc) {
      show(eta, '');
      eta.removeAttribute('data-eta');
      return;
    }
    var minutes = Math.round((Date.parse(view.estimatedDeliveryAtUtc) - (Date.now() + skewMs)) / 60000);
    var when = minutes > 0 ? 'in ' + minutes + ' min' : 'any minute now';
    show(eta, 'Arriving around ' + clock(view.estimatedDeliveryAtUtc) + ' (' + when + ')');
    eta.setAttribute('data-eta', view.estimatedDeliveryAtUtc);
  }

  function render(view) {
    var status = el('status');
    status.textContent = view.statusText;
    status.setAttribute('data-status', view.status);
    document.title = view.statusText + ' · Your delivery';
    show(el('driver'), view.driverFirstName ? 'Your driver: ' + view.driverFirstName : '');
    renderEta(view);
    drawMap(view);
    show(el('updated'), 'Last update ' + clock(view.updatedAtUtc, true));
    document.body.setAttribute('data-terminal', String(view.terminal));
    document.body.setAttribute('data-refreshes', String(++refreshes));
  }

  function schedule() {
    if (!stopped && !document.hidden && timer === null) timer = setTimeout(poll, delayMs);
  }

  function poll() {
    timer = null;
    busy = true;
    delayMs = REFRESH_MS;
    var sent = Date.now();
    fetch(stateUrl, { cache: 'no-store', credentials: 'omit', headers: { accept: 'application/json' } })
      .then(function (res) {
        if (res.status === 404) stopped = true;
        // Too many requests: ask again when the server says (Retry-After, seconds), at most a minute.
        var wait = res.status === 429 ? Number(res.headers.get('Retry-After')) * 1000 : 0;
        if (wait > REFRESH_MS) delayMs = Math.min(wait, 60000);
        if (!res.ok) throw new Error('HTTP ' + res.status);
        return res.json();
      })
      .then(function (view) {
        skewMs = Date.parse(view.servedAtUtc) - (sent + Date.now()) / 2;
        if (view.terminal) stopped = true;
        show(el('notice'), '');
        render(view);
      })
      .catch(function () {
        show(el('notice'), stopped ? 'This tracking link is no longer valid.' : 'Cannot reach the server: trying again.');
      })
      .then(function () {
        busy = false;
        schedule();
      });
  }

  document.addEventListener('visibilitychange', function () {
    if (document.hidden) {
      if (timer !== null) clearTimeout(timer);
      timer = null;
    } else if (!busy && timer === null && !stopped) {
      poll();
    }
  });
  poll();
})();
`;

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/**
 * Nothing but this document's own style and script (by hash: the document never changes, so no
 * nonce is needed), requests to this origin only (the state), the inline data: icon, no framing,
 * no forms, no base URL. A page that held an injected tag could still not run it or send anything
 * anywhere else.
 */
export const TRACKING_PAGE_CSP = [
  "default-src 'none'",
  `script-src ${sha256(SCRIPT)}`,
  `style-src ${sha256(STYLE)}`,
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Headers of the page and its state. The token is the URL: no-store keeps the page out of shared
 * and browser caches, no-referrer keeps the URL from leaving with any request, noindex keeps it
 * out of search engines should a link be posted somewhere public.
 */
export const TRACKING_HEADERS: Readonly<Record<string, string>> = {
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY', // frame-ancestors for browsers that predate it
  'X-Robots-Tag': 'noindex, nofollow',
};

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

function htmlDocument(title: string, body: string, script: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex, nofollow">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
${script}</body>
</html>
`;
}

/** The page, with the status as it is now (readable before the first refresh, or without script). */
export function trackingPageHtml(view: Pick<PublicTrackingView, 'status' | 'statusText'>): string {
  return htmlDocument(
    `${view.statusText} · Your delivery`,
    `<h1 id="status" data-testid="status" data-status="${escapeHtml(view.status)}" aria-live="polite">${escapeHtml(view.statusText)}</h1>
<p id="driver" data-testid="driver" hidden></p>
<p id="eta" data-testid="eta" hidden></p>
<p id="notice" data-testid="notice" role="status" hidden></p>
<svg id="map" data-testid="map" viewBox="0 0 320 240" role="img" aria-label="Map: the restaurant, the area of the destination and the driver">
<g id="markers">
<line id="route" data-testid="route" x1="0" y1="0" x2="0" y2="0"></line>
<circle id="destination-area" data-testid="destination-area" cx="-50" cy="-50" r="0"></circle>
<circle id="pickup-marker" data-testid="pickup-marker" cx="-50" cy="-50" r="7"></circle>
<circle id="destination-marker" data-testid="destination-marker" cx="-50" cy="-50" r="7"></circle>
</g>
</svg>
<ul class="legend">
<li><span class="dot pickup"></span>Restaurant</li>
<li><span class="dot destination"></span>Your area</li>
<li id="legend-driver" hidden><span class="dot driver"></span>Driver</li>
</ul>
<p id="updated" data-testid="updated" class="muted" hidden></p>
<noscript><p class="muted">Reload the page to see the latest status.</p></noscript>`,
    `<script>${SCRIPT}</script>\n`,
  );
}

/** Too many requests for a link, or from one address (429, with Retry-After): naming nothing either. */
export const TRACKING_TOO_MANY_REQUESTS_HTML = htmlDocument(
  'Too many requests',
  `<h1 id="status" data-testid="status">Too many requests</h1>
<p>This page was asked for too often in the last minute. Wait a minute, then reload it.</p>`,
  '',
);

/** A malformed, unknown or withdrawn link: one answer for all, naming nothing. */
export const TRACKING_NOT_FOUND_HTML = htmlDocument(
  'Tracking link not found',
  `<h1 id="status" data-testid="status">This tracking link does not work</h1>
<p>Check that the whole link was copied, or ask whoever sent it for a new one.</p>`,
  '',
);
