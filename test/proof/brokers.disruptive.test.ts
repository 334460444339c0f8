import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '@marketplace/testing';

// CI's run of the fault proof on a three-broker Kafka of its own (scripts/proof/faults.mjs
// --brokers 3 --short): KRaft, replication factor 3, min.insync.replicas 2, producers with
// acks=all; each broker killed (kill -9) and started again under the proof's traffic, the last
// kept away for 15 s. Every promise of the proof must hold: nothing acknowledged lost or
// duplicated, every webhook and callback delivered, signed and in order (before the publisher
// left kafkajs's idempotent producer, this run found an orders.cancelled ahead of its
// orders.created on the topic), the services ready throughout.
const TIMEOUT_MS = 12 * 60_000;

it(
  'keeps every promise while the brokers of a three-broker Kafka are killed and started again',
  async () => {
    const child = spawn(process.execPath, [join(repoRoot, 'scripts/proof/faults.mjs'), '--brokers', '3', '--short'], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += String(chunk)));
    child.stderr.on('data', (chunk) => (output += String(chunk)));
    const timer = setTimeout(() => child.kill('SIGTERM'), TIMEOUT_MS - 30_000);
    const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
    clearTimeout(timer);
    const counts = output.slice(Math.max(0, output.indexOf('proof:faults: faults')));
    console.log(counts || output.slice(-4000));
    if (code !== 0) throw new Error(`proof:faults --brokers 3 --short exited ${code}:\n${output.slice(-6000)}`);
    expect(output).toMatch(/proof:faults: every promise held/);
  },
  TIMEOUT_MS,
);
