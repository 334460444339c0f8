// A three-broker Kafka of the proof's own (`--brokers 3`): KRaft, each node broker and controller,
// replication factor 3, `min.insync.replicas` 2, on free loopback ports (PLAINTEXT), its data under
// .stack/proof-kafka-trio (formatted afresh each run). It runs the jars the stack's Kafka runs
// (scripts/stack/kafka.sh resolves them with Maven into the stack's cache; `stack.sh up` before).
// The proof's cluster then talks to these brokers instead of the stack's; the producers send with
// acks=all (the publisher's default), so a write is acknowledged once two of the three have it, and
// the `broker` fault kills one (kill -9) and starts it again.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { root, stackDir } from '../../services.mjs';

const require = createRequire(join(root, 'package.json'));
const { freePort } = require('./shared/testing/dist/service-process.js');
const { waitFor } = require('./shared/testing/dist/wait.js');
const { Kafka, logLevel } = require('kafkajs');

const VERSION = '4.4.0'; // scripts/stack/kafka.sh's KAFKA_DEFAULT_VERSION
const HOST = '127.0.0.1';
const START_TIMEOUT_MS = 180_000;

function classpath() {
  const cache = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'marketplace-stack');
  const file = join(cache, `kafka-${VERSION}`, 'classpath.txt');
  if (!existsSync(file)) throw new Error(`no Kafka ${VERSION} jars in the stack's cache: run npm run stack:up first`);
  return readFileSync(file, 'utf8').trim();
}

const LOG4J2 = `status = warn
appender.out.type = Console
appender.out.name = OUT
appender.out.layout.type = PatternLayout
appender.out.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = WARN
rootLogger.appenderRef.out.ref = OUT
logger.server.name = kafka.server.KafkaRaftServer
logger.server.level = INFO
`;

export class KafkaTrio {
  constructor({ logDir, say }) {
    this.dir = join(stackDir, 'proof-kafka-trio');
    this.logDir = logDir;
    mkdirSync(logDir, { recursive: true });
    this.say = say;
    /** node id -> { id, port, controllerPort, config, child } */
    this.nodes = new Map();
  }

  get brokers() {
    return [...this.nodes.values()].map((n) => `${HOST}:${n.port}`);
  }

  /** The stack environment with Kafka replaced by the trio (plain, no SASL). */
  env(stackEnv) {
    const env = { ...stackEnv, KAFKA_BROKERS: this.brokers.join(',') };
    for (const name of Object.keys(env)) if (/^KAFKA_(SECURITY_PROTOCOL|SASL_|SSL_)/.test(name)) delete env[name];
    return env;
  }

  async start() {
    rmSync(this.dir, { recursive: true, force: true });
    mkdirSync(this.dir, { recursive: true });
    this.classpath = classpath();
    for (const id of [1, 2, 3]) this.nodes.set(id, { id, port: await freePort(), controllerPort: await freePort() });
    const voters = [...this.nodes.values()].map((n) => `${n.id}@${HOST}:${n.controllerPort}`).join(',');
    writeFileSync(join(this.dir, 'log4j2.properties'), LOG4J2);
    // A cluster id: 16 random bytes, base64url, never starting with '-' (kafka.sh says why).
    let clusterId = '-';
    while (clusterId.startsWith('-')) clusterId = randomBytes(16).toString('base64url');
    for (const node of this.nodes.values()) {
      node.config = join(this.dir, `node-${node.id}.properties`);
      writeFileSync(
        node.config,
        [
          'process.roles=broker,controller',
          `node.id=${node.id}`,
          `controller.quorum.voters=${voters}`,
          'controller.listener.names=CONTROLLER',
          `listeners=PLAINTEXT://${HOST}:${node.port},CONTROLLER://${HOST}:${node.controllerPort}`,
          `advertised.listeners=PLAINTEXT://${HOST}:${node.port}`,
          'listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT',
          'inter.broker.listener.name=PLAINTEXT',
          `log.dirs=${join(this.dir, `data-${node.id}`)}`,
          'auto.create.topics.enable=false',
          'num.partitions=3',
          'default.replication.factor=3',
          'min.insync.replicas=2',
          'offsets.topic.replication.factor=3',
          'offsets.topic.num.partitions=10',
          'transaction.state.log.replication.factor=3',
          'transaction.state.log.min.isr=2',
          'group.initial.rebalance.delay.ms=0',
          'num.network.threads=2',
          'num.io.threads=2',
          '',
        ].join('\n'),
      );
      const format = spawnSync(
        'java',
        [...this.java(), 'kafka.tools.StorageTool', 'format', '-t', clusterId, '-c', node.config, '--ignore-formatted'],
        { encoding: 'utf8', timeout: 120_000 },
      );
      if (format.status !== 0) throw new Error(`formatting broker ${node.id} failed: ${format.stdout}${format.stderr}`);
    }
    await Promise.all([...this.nodes.keys()].map((id) => this.startNode(id)));
    await this.untilComplete();
  }

  java() {
    return [
      '-Xms128m',
      '-Xmx384m',
      '-XX:+UseG1GC',
      '-Djava.awt.headless=true',
      `-Dlog4j2.configurationFile=${join(this.dir, 'log4j2.properties')}`,
      '-cp',
      this.classpath,
    ];
  }

  startNode(id) {
    const node = this.nodes.get(id);
    const child = spawn('java', [...this.java(), 'kafka.Kafka', node.config], { stdio: ['ignore', 'pipe', 'pipe'] });
    const log = createWriteStream(join(this.logDir, `kafka-trio-${id}-${child.pid}.log`));
    child.stdout.pipe(log);
    child.stderr.pipe(log);
    node.child = child;
    node.exited = new Promise((resolve) => child.once('exit', resolve));
  }

  /** kill -9 of broker `id`; resolves once it is gone. */
  async kill(id) {
    const node = this.nodes.get(id);
    node.child.kill('SIGKILL');
    await node.exited;
  }

  /** Starts broker `id` again and waits until the cluster has all three brokers with their replicas in sync. */
  async restart(id) {
    this.startNode(id);
    await this.untilComplete();
  }

  /** Until the three brokers answer and every partition of every topic has its three replicas in sync. */
  async untilComplete(timeoutMs = START_TIMEOUT_MS) {
    const kafka = new Kafka({
      clientId: 'proof-kafka-trio',
      brokers: this.brokers,
      connectionTimeout: 2_000,
      retry: { retries: 0 },
      logLevel: logLevel.NOTHING,
    });
    const admin = kafka.admin();
    try {
      await waitFor(
        'the three brokers of the proof’s Kafka, every replica in sync',
        async () => {
          try {
            await admin.connect();
            const cluster = await admin.describeCluster();
            if (cluster.brokers.length < 3) return false;
            const { topics } = await admin.fetchTopicMetadata();
            return topics.every((t) => t.partitions.every((p) => p.isr.length === 3));
          } catch {
            await admin.disconnect().catch(() => undefined);
            return false;
          }
        },
        timeoutMs,
        500,
      );
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
  }

  /** Stops the three brokers (SIGKILL: the data is thrown away) and removes their data. */
  async stop() {
    for (const node of this.nodes.values())
      if (node.child && node.child.exitCode === null && node.child.signalCode === null) node.child.kill('SIGKILL');
    await Promise.all([...this.nodes.values()].map((n) => n.exited));
    rmSync(this.dir, { recursive: true, force: true });
  }
}
