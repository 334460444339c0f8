import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_LAUNCH_BUDGET_MS, launchChromium, startGateway, type TestGateway } from '@marketplace/testing';
import { DOCS } from '../src/http/docs-routes';
import { PROBLEM_TYPES } from '../src/http/docs/problem-types';

// The API reference at /docs, in a real browser: the real gateway process serves the pages and
// Swagger UI's files, and headless Chromium (Debian's package, installed by
// scripts/browser/chromium.sh) renders them under the pages' Content-Security-Policy.

const RENDER_TIMEOUT_MS = 20_000;
// A Partner API per-IP budget this small shows the docs are not Partner API traffic: the pages
// load many files and a document, and none of it may be counted against it.
const PARTNER_PER_IP = 2;

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

let gw: TestGateway | undefined;
let browser: Browser | undefined;

beforeAll(async () => {
  [gw, browser] = await Promise.all([
    startGateway({ RATE_LIMIT_PER_IP: String(PARTNER_PER_IP) }),
    launchChromium(chromium),
  ]);
}, CHROMIUM_LAUNCH_BUDGET_MS);

afterAll(async () => {
  // Each on its own: a browser that fails to close must not leave the gateway running.
  await Promise.allSettled([browser?.close(), gw?.stop()]);
});

function gateway(): TestGateway {
  if (!gw) throw new Error('the gateway did not start (see beforeAll)');
  return gw;
}

/** `METHOD path` of every operation of a document: its paths and, in OpenAPI 3.1, its webhooks. */
function operationsOf(document: { paths?: Record<string, object>; webhooks?: Record<string, object> }): string[] {
  const ops: string[] = [];
  for (const section of [document.paths ?? {}, document.webhooks ?? {}]) {
    for (const [path, item] of Object.entries(section)) {
      for (const key of Object.keys(item)) if (HTTP_METHODS.includes(key)) ops.push(`${key.toUpperCase()} ${path}`);
    }
  }
  return ops.sort();
}

async function getJson(path: string): Promise<any> {
  const res = await fetch(gateway().url + path, { signal: AbortSignal.timeout(10_000) });
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status}`);
  return res.json();
}

interface Visit {
  page: Page;
  requests: string[];
  problems: string[];
}

/** Opens a page recording every request it makes and every console error or uncaught exception. */
async function open(
  path: string,
  viewport?: { width: number; height: number },
): Promise<Visit & { status: number | undefined; csp: string | undefined }> {
  const page = await browser!.newPage(viewport ? { viewport } : {});
  const requests: string[] = [];
  const problems: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('console', (m) => void (m.type() === 'error' && problems.push(`console: ${m.text()}`)));
  page.on('pageerror', (e) => problems.push(`exception: ${e.message}`));
  const response = await page.goto(gateway().url + path, { timeout: 15_000, waitUntil: 'load' });
  return {
    page,
    requests,
    problems,
    status: response?.status(),
    csp: (await response?.allHeaders())?.['content-security-policy'],
  };
}

/** What Swagger UI lists: `METHOD path` of each operation block, read from the DOM. */
async function renderedOperations(page: Page): Promise<string[]> {
  const ops = await page.$$eval('.opblock', (blocks) =>
    blocks.map((b) => {
      const method = b.querySelector('.opblock-summary-method')?.textContent?.trim() ?? '?';
      const path = b.querySelector('.opblock-summary-path');
      // The visible text may carry zero-width spaces (line-break hints); the data-path must not.
      return {
        method,
        dataPath: path?.getAttribute('data-path') ?? '?',
        text: (path?.textContent ?? '?').replace(/\u200b/g, '').trim(),
      };
    }),
  );
  for (const op of ops) expect(op.text).toBe(op.dataPath);
  return ops.map((op) => `${op.method} ${op.dataPath}`).sort();
}

/** Waits until Swagger UI has rendered `count` operations; on timeout says what it saw. */
async function waitForOperations(visit: Visit, path: string, expected: string[]): Promise<void> {
  try {
    // A locator wait (Playwright's own selector engine): a waitForFunction predicate would be
    // evaluated as a string in the page, which the page's CSP rightly refuses.
    await visit.page
      .locator('.opblock')
      .nth(expected.length - 1)
      .waitFor({ state: 'attached', timeout: RENDER_TIMEOUT_MS });
  } catch {
    const rendered = await renderedOperations(visit.page).catch((): string[] => []);
    throw new Error(
      `waited ${RENDER_TIMEOUT_MS / 1000} s for Swagger UI to render the ${expected.length} operations of ${path}; it shows ${rendered.length}.\n` +
        `missing: ${JSON.stringify(expected.filter((op) => !rendered.includes(op)))}\nproblems in the page: ${JSON.stringify(visit.problems)}`,
    );
  }
}

/** The page's window, in functions that run in the page (the tests compile without the DOM's types). */
interface PageWindow {
  document: { documentElement: { scrollWidth: number } };
  getComputedStyle(element: unknown): Record<string, string>;
}

/** Requests of the page to anywhere but the gateway (data: URLs are not requests to a host). */
function foreign(requests: string[]): string[] {
  const origin = new URL(gateway().url).origin;
  return requests.filter((url) => !url.startsWith('data:') && new URL(url).origin !== origin);
}

describe('API reference at /docs', () => {
  it('the index links one page per document, styled by its own stylesheet, readable on a phone', async () => {
    expect(DOCS.map((d) => d.name)).toEqual(
      expect.arrayContaining([
        'partner',
        'marketplace',
        'tenant-catalog',
        'tenant-orders',
        'tenant-deliveries',
        'tenant-webhooks',
        'provider-contract',
        'provider-courier',
      ]),
    );
    const visit = await open('/docs', { width: 375, height: 812 });
    try {
      expect(visit.status).toBe(200);
      expect(visit.csp).toContain("style-src 'self';");
      const titles = await visit.page.$$eval('article.card h3 a', (as) => as.map((a) => a.getAttribute('href')));
      expect(titles.sort()).toEqual(DOCS.map((d) => `/docs/${d.name}`).sort());
      // Every link to a page of /docs names a page that exists (no link to a document not listed).
      const links = await visit.page.$$eval('a', (as) => as.map((a) => a.getAttribute('href') ?? ''));
      const pages = links.filter((href) => /^\/docs\/[^/#?]+$/.test(href) && href !== '/docs/problems');
      expect([...new Set(pages)].sort()).toEqual(DOCS.map((d) => `/docs/${d.name}`).sort());
      // The stylesheet applied (under a CSP without inline styles), and nothing is wider than a phone.
      expect(
        await visit.page.$eval(
          'article.card',
          (el) => (globalThis as unknown as PageWindow).getComputedStyle(el).borderTopLeftRadius,
        ),
      ).toBe('10px');
      expect(
        await visit.page.evaluate(() => (globalThis as unknown as PageWindow).document.documentElement.scrollWidth),
      ).toBeLessThanOrEqual(375);
      expect(visit.requests).toEqual(expect.arrayContaining([expect.stringContaining('/docs/assets/docs.css?v=')]));
      expect(foreign(visit.requests)).toEqual([]);
      expect(visit.problems).toEqual([]);
    } finally {
      await visit.page.close();
    }
  });

  for (const doc of DOCS) {
    it(`/docs/${doc.name} lists every operation of ${doc.published}, try-it ${doc.tryItOut ? 'on' : 'off'}, and fetches only from the gateway`, async () => {
      // The published document, fetched as any client would: the page must show exactly it. A tenant
      // document needs a tenant token and its owner running, a provider document provider-delivery;
      // the owner serves this very object (from @marketplace/contracts), so the test takes it as JSON
      // from there.
      const published =
        doc.publishedOn === 'gateway' ? await getJson(doc.published) : JSON.parse(JSON.stringify(doc.document));
      const expected = operationsOf(published);
      expect(expected.length).toBeGreaterThan(0);
      expect(await getJson(`/docs/${doc.name}/openapi.json`)).toEqual(published);

      const path = `/docs/${doc.name}`;
      const visit = await open(path);
      try {
        expect(visit.status).toBe(200);
        expect(visit.csp).toContain("script-src 'self'");
        await waitForOperations(visit, path, expected);
        expect(await renderedOperations(visit.page)).toEqual(expected);

        // The try-it button only shows in an expanded operation, and Swagger UI enables it by
        // method: open the first operation of each method the document uses, then count.
        // (Opening all of them costs seconds of rendering per page and shows nothing more.)
        const methods = [
          ...new Set(operationsOf({ paths: published.paths }).map((op) => op.split(' ')[0]!.toLowerCase())),
        ];
        for (const method of methods)
          await visit.page
            .locator(`.opblock-${method}`)
            .first()
            .locator('.opblock-summary-control')
            .click({ timeout: 10_000 });
        await visit.page
          .locator('.opblock.is-open .opblock-body')
          .nth(methods.length - 1)
          .waitFor({ state: 'attached', timeout: RENDER_TIMEOUT_MS })
          .catch(() => {
            throw new Error(
              `waited ${RENDER_TIMEOUT_MS / 1000} s for ${methods.length} operations of ${path} (one per method) to expand`,
            );
          });
        const tryItOut = await visit.page.getByRole('button', { name: 'Try it out' }).count();
        expect(tryItOut).toBe(doc.tryItOut ? methods.length : 0);
        // Stated here, not only read from the list under test: the Partner API page has no console.
        if (doc.name === 'partner') expect(tryItOut).toBe(0);

        expect(foreign(visit.requests)).toEqual([]);
        // The recording saw the page's own loads, so an empty list above means something.
        expect(visit.requests).toEqual(
          expect.arrayContaining([
            `${gateway().url}/docs/${doc.name}/openapi.json`,
            expect.stringContaining('/docs/assets/swagger-ui-bundle.js'),
          ]),
        );
        // No CSP violation (Chromium reports each as a console error), no script error.
        expect(visit.problems).toEqual([]);
      } finally {
        await visit.page.close();
      }
    });
  }

  it('does not count the pages against the Partner API per-IP limit', async () => {
    for (let i = 0; i < PARTNER_PER_IP + 3; i++) {
      for (const path of ['/docs', '/docs/partner', '/docs/partner/openapi.json']) {
        expect((await fetch(gateway().url + path, { signal: AbortSignal.timeout(10_000) })).status).toBe(200);
      }
    }
    // Control: the Partner API's per-IP limit is in force (it counts before the key is checked).
    const statuses: number[] = [];
    for (let i = 0; i < PARTNER_PER_IP + 1; i++)
      statuses.push(
        (await fetch(`${gateway().url}/api/partner/v1/catalog/branches`, { signal: AbortSignal.timeout(10_000) }))
          .status,
      );
    expect(statuses).toContain(429);
    // The refusal names its policy in the IETF RateLimit fields, with the wait of Retry-After.
    const refused = await fetch(`${gateway().url}/api/partner/v1/catalog/branches`, {
      signal: AbortSignal.timeout(10_000),
    });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('ratelimit-policy')).toBe(`"ip";q=${PARTNER_PER_IP};w=60`);
    expect(refused.headers.get('ratelimit')).toBe(`"ip";r=0;t=${refused.headers.get('retry-after')}`);
  });

  it('serves a page for every problem type, and 404 for a code that is none', async () => {
    const get = (path: string) => fetch(gateway().url + path, { signal: AbortSignal.timeout(10_000) });
    expect(PROBLEM_TYPES.size).toBeGreaterThan(50);
    for (const [code, type] of PROBLEM_TYPES) {
      const res = await get(`/docs/problems/${code}`);
      const html = await res.text();
      expect([code, res.status, res.headers.get('content-type')]).toEqual([code, 200, 'text/html; charset=utf-8']);
      expect(html).toContain(`<code>${code}</code>`);
      for (const status of type.statuses) expect(html).toContain(String(status));
    }
    for (const path of ['/docs/problems/no.such_code', '/docs/problems/openapi.json', '/docs/problems/partner']) {
      const res = await get(path);
      expect([path, res.status]).toEqual([path, 404]);
      expect(((await res.json()) as { type: string }).type).toBe('/docs/problems/resource.not_found');
    }
    const index = await (await get('/docs/problems')).text();
    for (const code of PROBLEM_TYPES.keys()) expect(index).toContain(`href="/docs/problems/${code}"`);
  });

  it("resolves an error answer's problem type, relative to the URI called, to the page of its code", async () => {
    const res = await fetch(`${gateway().url}/api/partner/v1/catalog/branches`, {
      signal: AbortSignal.timeout(10_000),
    });
    expect([401, 429]).toContain(res.status); // 429 once the per-IP test above spent the budget
    const problem = (await res.json()) as { type: string; code: string };
    expect(problem.type).toBe(`/docs/problems/${problem.code}`);
    const visit = await open(new URL(problem.type, res.url).pathname);
    try {
      expect(visit.status).toBe(200);
      expect(await visit.page.textContent('.lead code')).toBe(problem.code);
      expect(
        await visit.page.$eval('dl.facts', (el) => (globalThis as unknown as PageWindow).getComputedStyle(el).display),
      ).toBe('grid');
      expect(foreign(visit.requests)).toEqual([]);
      expect(visit.problems).toEqual([]);
    } finally {
      await visit.page.close();
    }
  });

  it('serves only the listed assets, cached by version, and refuses any other path (400 or 404)', async () => {
    const get = (path: string, headers: Record<string, string> = {}) =>
      fetch(gateway().url + path, { headers, signal: AbortSignal.timeout(10_000) });
    const html = await (await get('/docs/partner')).text();
    const bundle = /src="(\/docs\/assets\/swagger-ui-bundle\.js\?v=[0-9a-f]+)"/.exec(html)?.[1];
    expect(bundle).toBeDefined();
    const ok = await get(bundle!);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toMatch(/^application\/javascript/);
    expect(ok.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    // A revalidation as a browser sends it; without a Cache-Control of its own, fetch() would add
    // `no-cache` (a forced reload), which rightly gets the whole file.
    expect(
      (await get(bundle!, { 'if-none-match': ok.headers.get('etag')!, 'cache-control': 'max-age=0' })).status,
    ).toBe(304);
    expect((await get('/docs/assets/swagger-ui.css')).headers.get('cache-control')).toBe('no-cache'); // no version: revalidate

    for (const path of [
      '/docs/assets/package.json',
      '/docs/assets/index.html',
      '/docs/assets/swagger-initializer.js',
      '/docs/assets/swagger-ui-bundle.js.map',
      '/docs/assets/..%2Fpackage.json',
      '/docs/assets/..%2F..%2F..%2F..%2Fpackage.json',
      '/docs/assets/%2e%2e%2fswagger-ui-dist%2fpackage.json',
      '/docs/assets/swagger-ui.css%00',
      '/docs/nope',
      '/docs/nope/openapi.json',
    ]) {
      // A path with an encoded dot, slash or NUL is refused before routing (400), any other is not found.
      const refused = /%(2e|2f|00)/i.test(path) ? 400 : 404;
      expect([path, (await get(path)).status]).toEqual([path, refused]);
    }
  });
});
