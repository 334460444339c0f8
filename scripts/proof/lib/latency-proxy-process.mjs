// The latency proxy (lib/latency-proxy.mjs) in a process of its own: the proof's own process
// blocks at times (spawnSync of the demo seed and of `stack.sh up`), and a proxy in it would stall
// every service's connections meanwhile. Started by `ProxyProcess`; told what to do over IPC.
import { LatencyProxy } from './latency-proxy.mjs';

const [name, host, port] = process.argv.slice(2);
const proxy = new LatencyProxy(name, { host, port: Number(port) });
process.on('message', (message) => {
  if (message.impair) proxy.impair(message.impair);
  if (message.heal) proxy.heal();
  process.send({ done: true });
});
process.on('disconnect', () => process.exit(0));
process.send({ port: await proxy.start() });
