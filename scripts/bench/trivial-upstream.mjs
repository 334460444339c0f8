// The internal service behind the gateway in scripts/bench/gateway.mjs: answers `[]` as JSON to
// any request, so the benchmark measures the gateway and not an owner service. Plain node:http,
// the cheapest server Node has. Run as a child process (its own event loop and CPU time, not
// autocannon's); listens on a free port, prints `{"port":N}` on stdout and exits when its
// parent closes stdin (so it never outlives the benchmark, not even a killed one).
import { createServer } from 'node:http';

const body = Buffer.from('[]');
const server = createServer((req, res) => {
  req.resume(); // drain any request body
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  res.end(body);
});
server.keepAliveTimeout = 60_000; // longer than the gateway's agent keeps idle sockets
server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: server.address().port })));
process.stdin.on('close', () => process.exit(0)).resume();
process.on('SIGTERM', () => process.exit(0));
