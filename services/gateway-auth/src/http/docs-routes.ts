import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { RouterContext } from '@koa/router';
import { notFound } from '@marketplace/errors';
import { PROBLEM_TYPE_PATH, type RequestState, type RouteTable } from '@marketplace/http';
import { DOCS } from './docs/documents';
import { indexPage, page, problemIndexPage, problemPage } from './docs/pages';
import { PROBLEM_TYPES } from './docs/problem-types';
import { DOCS_CSS } from './docs/style';

export { DOCS } from './docs/documents';

/**
 * A browsable API reference at /docs: an index of every document by audience (docs/documents.ts),
 * one Swagger UI page per document, and a page per problem type at /docs/problems/<code> (the
 * `type` of every problem+json answer).
 *
 * Public and outside /api/partner/v1 on purpose: the Partner API's per-IP limit, API-key check and
 * partner traffic do not concern someone reading the docs. For the same reason each page loads its
 * document from /docs/<name>/openapi.json (the same in-memory object the API serves at its own
 * URL), not from /api/partner/v1/openapi.json, which would spend the reader's per-IP budget.
 *
 * The tenant documents of catalog, ordering-pricing, delivery-assignment and webhook-sender, and
 * provider-delivery's provider contract and courier API, are contracts (`@marketplace/contracts`),
 * which their owners serve (the tenant ones behind the tenant forwarding, with a tenant token); the
 * pages here show the same objects without one, since a document holds nothing secret.
 */

/**
 * Swagger UI's inline styles are why 'unsafe-inline' is in style-src, and its SVG icons in the CSS
 * are data: URLs; everything else comes from this origin. No inline script: the initialiser is a
 * served file. connect-src 'self' keeps the try-it console to this gateway.
 */
const SWAGGER_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The pages written here (index, problem types): no script at all, styles from the asset only. */
const PAGE_CSP = [
  "default-src 'none'",
  "style-src 'self'",
  "img-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Reads the page's settings from its own element, so one cacheable file serves every page and no
 * inline script is needed. queryConfigEnabled stays at its default (false): a `?url=` in the
 * address bar must never make the page render someone else's document.
 */
const INITIALISER = `'use strict';
(function () {
  var root = document.getElementById('swagger-ui');
  var options = {
    url: root.getAttribute('data-url'),
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl],
    layout: 'BaseLayout',
  };
  if (root.getAttribute('data-try-it-out') !== 'true') options.supportedSubmitMethods = [];
  window.ui = SwaggerUIBundle(options);
})();
`;

interface Asset {
  body: Buffer;
  type: string;
  /** A digest of the content: the `?v=` of the links and the ETag. */
  version: string;
}

// package.json, not the package's main: it finds the folder wherever npm put (hoisted) the package.
const swaggerUiDir = () => dirname(require.resolve('swagger-ui-dist/package.json'));

function asset(body: Buffer | string, type: string): Asset {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body);
  return { body: bytes, type, version: createHash('sha256').update(bytes).digest('hex').slice(0, 16) };
}

/**
 * The only files served, by fixed name: a request never names a file on disk, so no path can
 * leave this list. Read once at start (a missing package fails the start, not a reader's page).
 */
function loadAssets(): ReadonlyMap<string, Asset> {
  const dir = swaggerUiDir();
  const file = (name: string) => readFileSync(join(dir, name));
  return new Map([
    ['swagger-ui-bundle.js', asset(file('swagger-ui-bundle.js'), 'application/javascript; charset=utf-8')],
    ['swagger-ui.css', asset(file('swagger-ui.css'), 'text/css; charset=utf-8')],
    ['favicon-32x32.png', asset(file('favicon-32x32.png'), 'image/png')],
    ['docs.js', asset(INITIALISER, 'application/javascript; charset=utf-8')],
    ['docs.css', asset(DOCS_CSS, 'text/css; charset=utf-8')],
  ]);
}

/** Headers of every docs response; the pages add the CSP. */
function securityHeaders(c: RouterContext<RequestState>): void {
  c.set('X-Content-Type-Options', 'nosniff');
  c.set('Referrer-Policy', 'no-referrer');
}

function sendPage(c: RouterContext<RequestState>, html: string, csp = PAGE_CSP): void {
  securityHeaders(c);
  c.set('Content-Security-Policy', csp);
  c.set('X-Frame-Options', 'DENY'); // frame-ancestors for browsers that predate it
  c.set('Cache-Control', 'no-cache'); // tiny, and it names the assets' current versions
  c.type = 'text/html; charset=utf-8';
  c.body = html;
}

/** The Swagger UI page of each document, by name. */
function documentPages(href: (name: string) => string, favicon: string): Map<string, string> {
  return new Map<string, string>(
    DOCS.map((d) => [
      d.name,
      page(
        `${d.title} reference`,
        `${favicon}\n<link rel="stylesheet" href="${href('swagger-ui.css')}">`,
        `<p><a href="/docs">All API references</a></p>
<div id="swagger-ui" data-url="/docs/${d.name}/openapi.json" data-try-it-out="${d.tryItOut}"></div>
<script src="${href('swagger-ui-bundle.js')}"></script>
<script src="${href('docs.js')}"></script>`,
      ),
    ]),
  );
}

function serveAsset(c: RouterContext<RequestState>, found: Asset): void {
  securityHeaders(c);
  // Links carry the content's digest, so a response to the current one never goes stale; any
  // other URL (no or an old `?v=`) is revalidated against the ETag instead.
  c.set('Cache-Control', c.query.v === found.version ? 'public, max-age=31536000, immutable' : 'no-cache');
  c.etag = found.version;
  c.type = found.type;
  c.body = found.body;
  if (c.fresh) c.status = 304; // Koa sends no body with a 304
}

export function registerDocsRoutes(routes: RouteTable): void {
  const assets = loadAssets();
  const href = (name: string) => `/docs/assets/${name}?v=${assets.get(name)!.version}`;
  const favicon = `<link rel="icon" type="image/png" href="${href('favicon-32x32.png')}">`;
  const head = `${favicon}\n<link rel="stylesheet" href="${href('docs.css')}">`;

  const index = indexPage(head);
  const problems = problemIndexPage(head);
  const problemPages = new Map([...PROBLEM_TYPES].map(([code, type]) => [code, problemPage(type, head)]));
  const pages = documentPages(href, favicon);
  const documents = new Map<string, unknown>(DOCS.map((d) => [d.name, d.document]));

  routes.get('/docs', 'public', (c) => sendPage(c, index));
  routes.get('/docs/assets/:file', 'public', (c) => {
    const found = assets.get(c.params.file ?? '');
    if (!found) throw notFound();
    serveAsset(c, found);
  });
  // Before /docs/:name and /docs/:name/openapi.json, which would match these paths too.
  routes.get(PROBLEM_TYPE_PATH, 'public', (c) => sendPage(c, problems));
  routes.get(`${PROBLEM_TYPE_PATH}/:code`, 'public', (c) => {
    const html = problemPages.get(c.params.code ?? '');
    if (!html) throw notFound();
    sendPage(c, html);
  });
  routes.get('/docs/:name', 'public', (c) => {
    const html = pages.get(c.params.name ?? '');
    if (!html) throw notFound();
    sendPage(c, html, SWAGGER_CSP);
  });
  routes.get('/docs/:name/openapi.json', 'public', (c) => {
    const document = documents.get(c.params.name ?? '');
    if (!document) throw notFound();
    securityHeaders(c);
    c.set('Cache-Control', 'public, max-age=300'); // as at the documents' own URLs
    c.body = document;
  });
}
