// The proxied baseline of scripts/bench/gateway.mjs: `new Koa()` and one middleware that forwards
// the request to the upstream named by UPSTREAM_URL over a keep-alive node:http agent (as the
// gateway's adapters/upstream.ts does) and answers with its status and body. What the gateway costs
// beyond this is what authentication, limits, scopes and the signed identity cost. Run as a child
// process; listens on a free port, prints `{"port":N}` on stdout and exits when its parent closes
// stdin.
import Koa from 'koa';
import { Agent, request } from 'node:http';

const upstream = new URL(process.env.UPSTREAM_URL);
const agent = new Agent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 64 });
const app = new Koa();
app.use(async (ctx) => {
  const answer = await new Promise((resolve, reject) => {
    const req = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: ctx.method,
        path: ctx.url,
        agent,
        headers: { accept: 'application/json' },
      },
      (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode, type: res.headers['content-type'], body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
  ctx.status = answer.status;
  ctx.type = answer.type ?? 'application/json';
  ctx.body = answer.body;
});
const server = app.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: server.address().port })));
process.stdin.on('close', () => process.exit(0)).resume();
process.on('SIGTERM', () => process.exit(0));
