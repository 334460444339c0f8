import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startServiceProcess, waitFor, type ServiceProcess } from '@marketplace/testing';

// With OTEL_EXPORTER_OTLP_ENDPOINT set, a service exports its spans over OTLP/HTTP; this test
// plays the collector.
let collector: Server;
let service: ServiceProcess;
const received: { path: string; body: string }[] = [];

beforeAll(async () => {
  collector = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += String(chunk)));
    req.on('end', () => {
      received.push({ path: req.url ?? '', body });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
  service = await startServiceProcess('catalog', 4402, {
    OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
    OTEL_BSP_SCHEDULE_DELAY: '200',
    MONGO_DATABASE: 'it_tracing_catalog',
  });
});

afterAll(async () => {
  await service?.stop();
  await new Promise((resolve) => collector.close(resolve));
});

it("exports the span of an incoming request, continuing the caller's trace, to the configured endpoint", async () => {
  const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
  await fetch(`${service.url}/no-such-route`, { headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` } });
  const sent = await waitFor(
    'an OTLP export carrying the request trace',
    () => received.find((e) => e.path === '/v1/traces' && e.body.includes(traceId)),
    15_000,
  );
  expect(sent.body).toContain('"catalog"'); // service.name resource attribute
});
