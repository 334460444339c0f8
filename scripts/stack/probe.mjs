// Readiness probe used by scripts/stack/*.sh.
//   node probe.mjs kafka <port>     -> Kafka metadata request (describeCluster) through kafkajs
//   node probe.mjs mongodb <port>   -> MongoDB wire-protocol `ping` (+ buildInfo) through the mongodb driver
// Prints one line of detail and exits 0 when ready, 1 otherwise. Modules are resolved from the
// repository's node_modules; when a module is missing it falls back to a plain TCP connect.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';

const require = createRequire(import.meta.url);
const [kind, portArg] = process.argv.slice(2);
const host = '127.0.0.1';
const port = Number(portArg);
const TIMEOUT_MS = Number(process.env.STACK_PROBE_TIMEOUT_MS || 5000);

function optionalRequire(name) {
  try {
    return require(name);
  } catch {
    return undefined;
  }
}

function tcpConnect() {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port });
    socket.setTimeout(2000, () => socket.destroy(new Error('connect timeout')));
    socket.once('connect', () => {
      socket.end();
      resolve();
    });
    socket.once('error', reject);
  });
}

async function probeKafka() {
  const kafkajs = optionalRequire('kafkajs');
  if (!kafkajs) {
    await tcpConnect();
    return 'port open (kafkajs not installed: TCP check only)';
  }
  const { Kafka, logLevel } = kafkajs;
  // The secured stack (kafka.sh): SASL_SSL with SCRAM-SHA-512, the stack's CA.
  const secured = process.env.STACK_PROBE_CA_FILE
    ? {
        ssl: { ca: readFileSync(process.env.STACK_PROBE_CA_FILE, 'utf8') },
        sasl: {
          mechanism: 'scram-sha-512',
          username: process.env.STACK_PROBE_USER,
          password: readFileSync(process.env.STACK_PROBE_PASSWORD_FILE, 'utf8').trim(),
        },
      }
    : {};
  const kafka = new Kafka({
    clientId: 'stack-probe',
    brokers: [`${host}:${port}`],
    ...secured,
    logLevel: logLevel.NOTHING,
    connectionTimeout: 2000,
    requestTimeout: 3000,
    retry: { retries: 0 },
  });
  const admin = kafka.admin();
  await admin.connect();
  try {
    const cluster = await admin.describeCluster();
    if (!cluster.brokers.length || cluster.controller == null) {
      throw new Error('no brokers/controller in metadata');
    }
    return `cluster ${cluster.clusterId}, ${cluster.brokers.length} broker(s), controller ${cluster.controller}`;
  } finally {
    await admin.disconnect().catch(() => {});
  }
}

async function probeMongo() {
  const mongodb = optionalRequire('mongodb');
  if (!mongodb) {
    await tcpConnect();
    return 'port open (mongodb driver not installed: TCP check only)';
  }
  const client = new mongodb.MongoClient(`mongodb://${host}:${port}/`, {
    directConnection: true,
    serverSelectionTimeoutMS: 2000,
    connectTimeoutMS: 2000,
    socketTimeoutMS: 3000,
    monitorCommands: false,
  });
  try {
    await client.connect();
    const admin = client.db('admin');
    const pong = await admin.command({ ping: 1 });
    if (pong.ok !== 1) throw new Error(`ping returned ${JSON.stringify(pong)}`);
    const info = await admin.command({ buildInfo: 1 });
    return `ping ok, mongodb-compatible ${info.version}`;
  } finally {
    await client.close().catch(() => {});
  }
}

const probes = { kafka: probeKafka, mongodb: probeMongo };

if (!probes[kind] || !Number.isInteger(port)) {
  console.error('usage: node probe.mjs kafka|mongodb <port>');
  process.exit(2);
}

const timer = setTimeout(() => {
  console.log(`${kind}: no answer within ${TIMEOUT_MS}ms`);
  process.exit(1);
}, TIMEOUT_MS);

probes[kind]()
  .then((detail) => {
    clearTimeout(timer);
    console.log(detail);
    process.exit(0);
  })
  .catch((err) => {
    clearTimeout(timer);
    console.log(`${kind}: ${err?.message || err}`);
    process.exit(1);
  });
