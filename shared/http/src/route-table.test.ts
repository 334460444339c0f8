import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import Koa from 'koa';
import { createLogger } from '@marketplace/logging';
import { createHttpApp } from './app';
import { PROBE_ROUTES } from './probe-routes';
import { RouteDeclarationError, RouteTable, type RequestState, type RouteMiddleware } from './route-table';

const ok: RouteMiddleware = (c) => {
  c.body = { ok: true };
};
const pass: RouteMiddleware = (_, next) => next();

describe('declaring a route', () => {
  it('refuses a route without an audience, or with one not in the vocabulary', () => {
    const routes = new RouteTable();
    expect(() => routes.get('/x', undefined as never, ok)).toThrow(RouteDeclarationError);
    expect(() => routes.post('/x', 'internal' as never, ok)).toThrow(/no known audience/);
    expect(() => routes.get('/x', 'Admin' as never, ok)).toThrow(RouteDeclarationError);
    expect(routes.routes()).toEqual([]);
  });

  it('refuses the same method and path twice, even for another audience', () => {
    const routes = new RouteTable().get('/x', 'admin', ok);
    expect(() => routes.get('/x', 'admin', ok)).toThrow(/declared twice/);
    expect(() => routes.get('/x', 'public', ok)).toThrow(/declared twice/);
    routes.post('/x', 'admin', ok); // another method is another route
    expect(routes.routes()).toEqual([
      { method: 'GET', path: '/x', audience: 'admin' },
      { method: 'POST', path: '/x', audience: 'admin' },
    ]);
  });

  it('refuses a relative path, a route without a handler and a declaration after mounting', () => {
    const routes = new RouteTable();
    expect(() => routes.get('x', 'public', ok)).toThrow(/not an absolute path/);
    expect(() => routes.get('/x', 'public')).toThrow(/no handler/);
    routes.get('/x', 'public', ok).mount();
    expect(() => routes.get('/y', 'public', ok)).toThrow(/after the routes were mounted/);
    expect(() => routes.guard('admin', pass)).toThrow(RouteDeclarationError);
  });

  it('refuses a guard set twice or without a check', () => {
    const routes = new RouteTable().guard('admin', pass);
    expect(() => routes.guard('admin', pass)).toThrow(/set twice/);
    expect(() => routes.guard('tenant')).toThrow(/no check/);
  });
});

describe('mounting', () => {
  it('refuses a route whose audience the service has no guard for', () => {
    const routes = new RouteTable().guard('tenant', pass).get('/t', 'tenant', ok).get('/a', 'admin', ok);
    expect(() => routes.mount()).toThrow(RouteDeclarationError);
    expect(() => routes.mount()).toThrow(/GET \/a is for admin callers/);
  });

  it('needs no guard for public routes and probes', () => {
    const routes = new RouteTable().get('/docs', 'public', ok).get('/healthz', 'probe', ok);
    expect(() => routes.mount()).not.toThrow();
  });

  it('matches paths case-sensitively and strictly: another case or a trailing slash names no route', () => {
    const router = new RouteTable()
      .guard('admin', pass)
      .get('/admin/v1/things/:id', 'admin', ok)
      .get('/x', 'public', ok)
      .mount();
    const matched = (path: string) => router.match(path, 'GET').route;
    expect(matched('/x')).toBe(true);
    expect(matched('/admin/v1/things/1')).toBe(true);
    for (const path of [
      '/X',
      '/x/',
      '/ADMIN/v1/things/1',
      '/Admin/v1/things/1',
      '/admin/V1/things/1',
      '/admin/v1/Things/1',
      '/admin/v1/things/1/',
      '/admin/v1/things/',
      '/admin/v1//things/1',
    ])
      expect({ path, matched: matched(path) }).toEqual({ path, matched: false });
  });
});

describe('running a route', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  async function serve(routes: RouteTable): Promise<string> {
    const app = new Koa<RequestState>();
    app.use(routes.mount().routes());
    server = createServer(app.callback());
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it('runs the audience guard first, then the body reader, then the handlers', async () => {
    const order: string[] = [];
    const step =
      (name: string): RouteMiddleware =>
      async (_, next) => {
        order.push(name);
        await next();
      };
    const routes = new RouteTable([step('body reader')])
      .guard('admin', step('admin guard'))
      .post('/a', 'admin', step('handler 1'), (c) => {
        order.push('handler 2');
        c.body = {};
      });
    const base = await serve(routes);
    expect((await fetch(`${base}/a`, { method: 'POST' })).status).toBe(200);
    expect(order).toEqual(['admin guard', 'body reader', 'handler 1', 'handler 2']);
  });

  it('reads no body and runs no handler when the guard refuses', async () => {
    const order: string[] = [];
    const routes = new RouteTable([
      async (_, next) => {
        order.push('body reader');
        await next();
      },
    ])
      .guard('admin', (c) => {
        order.push('admin guard');
        c.status = 401;
        c.body = { refused: true };
      })
      .post('/a', 'admin', (c) => {
        order.push('handler');
        c.body = {};
      });
    const base = await serve(routes);
    const response = await fetch(`${base}/a`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(401);
    expect(order).toEqual(['admin guard']);
  });

  it("runs each route's own guard, never another audience's", async () => {
    const ran: string[] = [];
    const guard =
      (name: string): RouteMiddleware =>
      async (_, next) => {
        ran.push(name);
        await next();
      };
    const routes = new RouteTable()
      .guard('admin', guard('admin'))
      .guard('tenant', guard('tenant'))
      .get('/a', 'admin', ok)
      .get('/t', 'tenant', ok)
      .get('/p', 'public', ok);
    const base = await serve(routes);
    await fetch(`${base}/a`);
    await fetch(`${base}/t`);
    await fetch(`${base}/p`);
    expect((await fetch(`${base}/A`)).status).toBe(404);
    expect(ran).toEqual(['admin', 'tenant']);
  });
});

it('the probe list is what the shared HTTP app declares', () => {
  const logger = createLogger({ service: 'test', destination: new Writable({ write: (_c, _e, done) => done() }) });
  const { routes } = createHttpApp({ service: 'test', logger });
  expect(routes.routes()).toEqual(PROBE_ROUTES);
});
