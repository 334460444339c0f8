import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  connectedApp,
  freePort,
  partnerCall,
  sleep,
  startGateway,
  waitFor,
  type ConnectedApp,
  type TestGateway,
} from '@marketplace/testing';
import { TestUpstream } from './support/upstream';

// A Redis primary, its replica and three Sentinels of this test's own (Debian's redis-server, ACL
// users on both data nodes), and the gateway addressing them through REDIS_SENTINELS. The primary
// is killed with SIGKILL while a partner keeps sending idempotent orders: the Sentinels promote
// the replica, the gateway follows them to it, and in between every answer is the order (201,
// or the replay of one), or 503 `service.unavailable` with Retry-After; never a 500, never an order
// executed twice. Rate limits count on the new primary afterwards.

const MASTER = 'marketplace';
const USER = 'gateway';
const PASSWORD = randomBytes(18).toString('hex');
const dir = mkdtempSync(join(tmpdir(), 'sentinel-test-'));
const children: ChildProcess[] = [];
const exited = new Set<ChildProcess>();

function redisServer(args: string[], name: string): ChildProcess {
  const child = spawn('redis-server', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(`[${name}] ${chunk.toString()}`));
  child.on('exit', () => exited.add(child));
  children.push(child);
  return child;
}

/** A data node: the ACL user, and the same user to sync from a primary (either node may become one). */
function dataNode(port: number, replicaOf?: number): ChildProcess {
  const conf = join(dir, `redis-${port}.conf`);
  writeFileSync(
    conf,
    [
      `port ${port}`,
      'bind 127.0.0.1',
      'save ""',
      'appendonly no',
      `dir ${dir}`,
      `dbfilename dump-${port}.rdb`,
      'user default off',
      `user ${USER} on >${PASSWORD} ~* &* +@all`,
      `masteruser ${USER}`,
      `masterauth ${PASSWORD}`,
      ...(replicaOf ? [`replicaof 127.0.0.1 ${replicaOf}`] : []),
    ].join('\n'),
    { mode: 0o600 },
  );
  return redisServer([conf], `redis ${port}`);
}

function sentinel(port: number, primary: number): ChildProcess {
  const conf = join(dir, `sentinel-${port}.conf`);
  writeFileSync(
    conf,
    [
      `port ${port}`,
      'bind 127.0.0.1',
      `dir ${dir}`,
      'sentinel resolve-hostnames no',
      `sentinel monitor ${MASTER} 127.0.0.1 ${primary} 2`,
      `sentinel auth-user ${MASTER} ${USER}`,
      `sentinel auth-pass ${MASTER} ${PASSWORD}`,
      `sentinel down-after-milliseconds ${MASTER} 1000`,
      `sentinel failover-timeout ${MASTER} 10000`,
      `sentinel parallel-syncs ${MASTER} 1`,
    ].join('\n'),
    { mode: 0o600 },
  );
  return redisServer([conf, '--sentinel'], `sentinel ${port}`);
}

/** What a Sentinel says of the primary now (`SENTINEL get-master-addr-by-name`), over a raw socket. */
async function primaryPort(sentinelPort: number): Promise<number | undefined> {
  const { createConnection } = await import('node:net');
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port: sentinelPort });
    let reply = '';
    socket.setTimeout(1000, () => socket.destroy());
    socket.on('data', (chunk) => {
      reply += chunk.toString();
      const match = /\r\n(\d+)\r\n$/.exec(reply);
      if (match) {
        socket.end();
        resolve(Number(match[1]));
      }
    });
    socket.on('close', () => resolve(undefined));
    socket.on('error', () => resolve(undefined));
    socket.write(`SENTINEL get-master-addr-by-name ${MASTER}\r\n`);
  });
}

let upstream: TestUpstream;
let gw: TestGateway;
let app: ConnectedApp;
let ports: { primary: number; replica: number; sentinels: number[] };
let primary: ChildProcess;

beforeAll(async () => {
  ports = {
    primary: await freePort(),
    replica: await freePort(),
    sentinels: [await freePort(), await freePort(), await freePort()],
  };
  primary = dataNode(ports.primary);
  dataNode(ports.replica, ports.primary);
  await sleep(300);
  for (const port of ports.sentinels) sentinel(port, ports.primary);
  await waitFor(
    'the Sentinels to know the primary',
    async () => (await primaryPort(ports.sentinels[0]!)) === ports.primary,
    20_000,
    200,
  );

  upstream = await new TestUpstream().start();
  gw = await startGateway({
    ORDERING_URL: upstream.url,
    RATE_LIMIT_PER_IP: '100000',
    RATE_LIMIT_PER_INSTALLATION: '100000',
    REDIS_URL: '', // unset: the Sentinels instead
    REDIS_SENTINELS: ports.sentinels.map((p) => `127.0.0.1:${p}`).join(','),
    REDIS_SENTINEL_MASTER: MASTER,
    REDIS_USERNAME: USER,
    REDIS_PASSWORD: PASSWORD,
  });
  app = await connectedApp(gw, ['Orders.Create']);
}, 90_000);

afterAll(async () => {
  await gw?.stop();
  await upstream?.stop();
  for (const child of children) if (!exited.has(child)) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

const order = (key: string) =>
  partnerCall(gw, app.apiKey, 'POST', '/orders', {
    body: JSON.stringify({ externalOrderId: key }),
    headers: { 'idempotency-key': key },
  });

it('keeps idempotency and rate limits through a failover: 201, a replay or 503 with Retry-After in between, never a 500 or a second execution', async () => {
  const before = await order('before-failover');
  expect(before.status).toBe(201);

  primary.kill('SIGKILL');
  const killedAt = Date.now();
  const answers: { key: string; status: number; retryAfter: string | null; replayed: boolean }[] = [];
  const created = new Set<string>();
  let n = 0;
  // A partner sending an order every 100 ms, each retried with its own key until it is taken.
  let pending: string | undefined;
  for (;;) {
    const key = pending ?? `during-${++n}`;
    const res = await order(key);
    answers.push({
      key,
      status: res.status,
      retryAfter: res.headers.get('retry-after'),
      replayed: res.headers.get('idempotent-replayed') === 'true',
    });
    if (res.status === 201) {
      created.add(key);
      pending = undefined;
    } else pending = key;
    if (created.size >= 5 && Date.now() - killedAt > 3000) break;
    if (Date.now() - killedAt > 60_000)
      throw new Error(`no recovery within 60 s: ${JSON.stringify(answers.slice(-5))}`);
    await sleep(100);
  }

  const promoted = await primaryPort(ports.sentinels[0]!);
  expect(promoted).toBe(ports.replica);
  const statuses = [...new Set(answers.map((a) => a.status))].sort();
  console.info(
    `sentinel failover: ${answers.length} orders sent in ${Date.now() - killedAt} ms, answers ${statuses.join('/')}, ` +
      `${answers.filter((a) => a.status === 503).length} × 503 until the gateway followed the Sentinels to port ${promoted}`,
  );
  // Only an order or the documented refusal: never a 500 (nor any other status).
  expect(statuses.every((s) => s === 201 || s === 503)).toBe(true);
  for (const refused of answers.filter((a) => a.status === 503)) expect(refused.retryAfter).toMatch(/^\d+$/);

  // Each key executed once upstream: the retries of a refused key, and a replay after the failover.
  for (const key of ['before-failover', ...created]) {
    const again = await order(key);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  }
  expect(upstream.executions('POST', '/api/partner/v1/orders')).toBe(created.size + 1);

  // The rate limit counts on the new primary: the remaining quota falls by one per request.
  const remaining = async (key: string) => {
    const res = await order(key);
    expect(res.status).toBe(201);
    return Number(/r=(\d+)/.exec(res.headers.get('ratelimit') ?? '')?.[1]);
  };
  const first = await remaining('after-failover-1');
  const second = await remaining('after-failover-2');
  expect(Number.isInteger(first)).toBe(true);
  expect(second).toBe(first - 1);
  expect(gw.process.output()).not.toMatch(/"level":"(error|fatal)"/); // no unhandled errors (pino writes level labels)
}, 150_000);
