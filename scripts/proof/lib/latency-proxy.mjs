// The network fault: added latency and packet loss between the services and a stack component
// (Redis, the MongoDB-wire engine). `tc netem` in a network namespace would be the tool, but this
// machine's kernel has no netem (`tc qdisc add dev lo root netem` answers "Specified qdisc kind
// is unknown"), so the proof puts a TCP proxy of its own, on loopback, between its services and
// each component from the start, and turns the fault on and off there. Latency delays every chunk
// each way by `delayMs` (order kept); loss is what TCP makes of it: a lost segment arrives after a
// retransmission timeout, so a "lost" chunk waits `retransmitMs` more (and everything behind it on
// that connection). Bounded: the proxy only ever delays, and `stop` removes it. It runs in a
// process of its own (`ProxyProcess`, lib/latency-proxy-process.mjs): the proof's process blocks at
// times (synchronous spawns), which would stall every connection through it.
import { fork } from 'node:child_process';
import { createServer, connect } from 'node:net';
import { fileURLToPath } from 'node:url';

export class LatencyProxy {
  /** `target`: { host, port } of the component. */
  constructor(name, target) {
    this.name = name;
    this.target = target;
    this.fault = undefined;
    this.sockets = new Set();
    this.server = createServer((client) => this.pipe(client));
  }

  async start() {
    await new Promise((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = this.server.address().port;
    return this.port;
  }

  /** From now on: `delayMs` each way, and `lossPct` percent of chunks delayed by `retransmitMs` more. */
  impair({ delayMs, lossPct, retransmitMs = 200 }) {
    this.fault = { delayMs, lossPct, retransmitMs };
  }

  heal() {
    this.fault = undefined;
  }

  pipe(client) {
    const upstream = connect(this.target.port, this.target.host);
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    this.forward(client, upstream);
    this.forward(upstream, client);
  }

  /** Copies `from` to `to`, each chunk no earlier than the one before it (a TCP stream keeps its order). */
  forward(from, to) {
    let lastAt = 0;
    from.on('data', (chunk) => {
      const fault = this.fault;
      if (!fault) {
        if (lastAt <= Date.now()) return void to.write(chunk);
      }
      const lost = fault && Math.random() * 100 < fault.lossPct;
      const at = Math.max(lastAt, Date.now() + (fault?.delayMs ?? 0) + (lost ? fault.retransmitMs : 0));
      lastAt = at;
      setTimeout(() => {
        if (!to.destroyed) to.write(chunk);
      }, at - Date.now());
    });
    from.on('end', () => {
      setTimeout(() => to.end(), Math.max(0, lastAt - Date.now()));
    });
  }

  async stop() {
    this.heal();
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/**
 * A LatencyProxy in a child process (lib/latency-proxy-process.mjs), so that nothing the proof's
 * own process does (a synchronous spawn) can stall the connections it carries.
 */
export class ProxyProcess {
  constructor(name, target) {
    this.name = name;
    this.target = target;
  }

  /** Starts the process; answers the proxy's port. */
  start() {
    const file = fileURLToPath(new URL('./latency-proxy-process.mjs', import.meta.url));
    this.child = fork(file, [this.name, this.target.host, String(this.target.port)], { stdio: 'ignore' });
    return this.next('port').then((m) => m.port);
  }

  impair(fault) {
    this.child.send({ impair: fault });
    return this.next('done');
  }

  heal() {
    this.child.send({ heal: true });
    return this.next('done');
  }

  stop() {
    if (this.child?.connected) this.child.disconnect();
    this.child?.kill('SIGKILL');
  }

  next(field) {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the ${this.name} proxy did not answer (${field})`)), 10_000);
      const onMessage = (message) => {
        if (!(field in message)) return;
        clearTimeout(timer);
        this.child.off('message', onMessage);
        resolve(message);
      };
      this.child.on('message', onMessage);
    });
  }
}

/** The URL with its host and port replaced by the proxy's (credentials and path kept). */
export function throughProxy(url, port) {
  const parsed = new URL(url);
  parsed.hostname = '127.0.0.1';
  parsed.port = String(port);
  return parsed.toString();
}

/** The component's address from its URL. */
export function targetOf(url, defaultPort) {
  const parsed = new URL(url);
  return { host: parsed.hostname, port: Number(parsed.port || defaultPort) };
}
