import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Writable } from 'node:stream';
import { createLogger } from '@marketplace/logging';
import { createHttpApp, type HttpApp } from './index';

// service_ready and readiness_check_up move with what /readyz evaluates, and a scrape with no
// probe before it evaluates once itself.
const logger = createLogger({ service: 'test', destination: new Writable({ write: (_c, _e, done) => done() }) });
let up = true;
let runs = 0;
let http: HttpApp;
let server: Server;
let base: string;

beforeEach(async () => {
  up = true;
  runs = 0;
  http = createHttpApp({
    service: 'test',
    logger,
    readinessChecks: [
      {
        name: 'db',
        check: async () => {
          runs++;
          if (!up) throw new Error('down');
        },
      },
      { name: 'consumers', degradesOnly: true, check: async () => Promise.reject(new Error('held')) },
    ],
  });
  server = await http.listen(0, '127.0.0.1');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));

const scrape = async () => (await fetch(`${base}/metrics`)).text();
const value = (text: string, series: string) =>
  Number(new RegExp(`^${series.replace(/[{}"]/g, (c) => `\\${c}`)} (\\S+)$`, 'm').exec(text)?.[1]);

describe('readiness metrics', () => {
  it('follow the readiness evaluations: 1 while ready, 0 when a check is down, per check', async () => {
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    let text = await scrape();
    expect(value(text, 'service_ready{service="test"}')).toBe(1);
    expect(value(text, 'readiness_check_up{check="db",service="test"}')).toBe(1);
    expect(value(text, 'readiness_check_up{check="consumers",service="test"}')).toBe(0); // degraded, still ready

    up = false;
    expect((await fetch(`${base}/readyz`)).status).toBe(503);
    text = await scrape();
    expect(value(text, 'service_ready{service="test"}')).toBe(0);
    expect(value(text, 'readiness_check_up{check="db",service="test"}')).toBe(0);
  });

  it('are evaluated by a scrape when no probe came, once for both gauges', async () => {
    up = false;
    const text = await scrape();
    expect(runs).toBe(1);
    expect(value(text, 'service_ready{service="test"}')).toBe(0);
    expect(value(text, 'readiness_check_up{check="db",service="test"}')).toBe(0);
    await scrape(); // fresh: not evaluated again
    expect(runs).toBe(1);
  });

  it('say 0 once the service stops accepting', async () => {
    http.stopAccepting();
    expect((await fetch(`${base}/readyz`)).status).toBe(503);
    expect(value(await scrape(), 'service_ready{service="test"}')).toBe(0);
  });
});
