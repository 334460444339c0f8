// The baseline of scripts/bench/gateway.mjs: `new Koa()` and one middleware answering
// {"ok":true}, i.e. what the framework alone costs on this machine. Run as a child process (its
// own event loop, as the gateway has); listens on a free port, prints `{"port":N}` on stdout and
// exits when its parent closes stdin.
import Koa from 'koa'; // the version the services use (hoisted to the root node_modules)

const app = new Koa();
app.use((ctx) => {
  ctx.body = { ok: true };
});
const server = app.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: server.address().port })));
process.stdin.on('close', () => process.exit(0)).resume();
process.on('SIGTERM', () => process.exit(0));
