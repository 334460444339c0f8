// CPU per operation for every process an operation touches: the services a bench started (their
// child processes) and the local stack's own processes (Kafka, the schema registry, the
// MongoDB-wire engine, Redis; their pid files in .stack/run). A bench marks the start of a phase,
// runs it, and divides what each process spent by the operations the phase completed:
//
//   const meter = cpuMeter(processes);  ...phase...  console.log(formatCpu(meter.per(orders), 'order'));
//
// The sum is what the "CPU per order, summed over every process" means. Processes this
// machine shares with other work (another bench, a test run on the same stack) are counted too:
// run benches alone.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from '../../services.mjs';
import { cpuMs } from './processes.mjs';

/** The stack's components, as scripts/stack names their pid files. */
export const STACK_COMPONENTS = ['kafka', 'schema-registry', 'mongo', 'redis'];

/** The pid of each running stack component (read from .stack/run/<name>.pid); missing ones left out. */
export function stackPids() {
  const pids = {};
  for (const name of STACK_COMPONENTS) {
    try {
      const pid = Number(readFileSync(join(root, '.stack', 'run', `${name}.pid`), 'utf8').trim());
      if (Number.isInteger(pid) && pid > 0 && cpuMs({ pid }) !== undefined) pids[name] = pid;
    } catch {
      // not started by this checkout's stack: not measured
    }
  }
  return pids;
}

/**
 * Starts measuring now: `children` are the processes by name (anything with a `pid`, such as
 * lib/processes.mjs's `processes`); the stack's components are added unless `stack` is false.
 * `per(operations)` gives, for each process, the CPU ms it used since the start and per
 * operation, and the total.
 */
export function cpuMeter(children, { stack = true } = {}) {
  const targets = {
    ...Object.fromEntries(Object.entries(children).map(([n, c]) => [n, c.pid])),
    ...(stack ? stackPids() : {}),
  };
  const started = Date.now();
  const before = Object.fromEntries(Object.entries(targets).map(([n, pid]) => [n, cpuMs({ pid })]));
  return {
    per(operations) {
      const wallMs = Date.now() - started;
      const rows = Object.entries(targets)
        .map(([name, pid]) => {
          const after = cpuMs({ pid });
          const ms = after === undefined || before[name] === undefined ? NaN : after - before[name];
          return { name, ms, perOperation: ms / operations, coreShare: ms / wallMs };
        })
        .filter((row) => !Number.isNaN(row.ms));
      const ms = rows.reduce((sum, row) => sum + row.ms, 0);
      return { operations, wallMs, rows, total: { ms, perOperation: ms / operations, coreShare: ms / wallMs } };
    },
  };
}

/** One line: the total CPU ms per operation, then each process's, largest first, with its share of a core. */
export function formatCpu({ operations, rows, total }, unit) {
  const units = unit.endsWith('y') ? `${unit.slice(0, -1)}ies` : `${unit}s`;
  if (operations === 0 || rows.length === 0)
    return `CPU per ${unit}: n/a (${operations} ${units}, ${rows.length} processes)`;
  const parts = [...rows]
    .sort((a, b) => b.ms - a.ms)
    .map((r) => `${r.name} ${r.perOperation.toFixed(2)} (${Math.round(r.coreShare * 100)} %)`);
  return `CPU per ${unit}: ${total.perOperation.toFixed(2)} ms over ${rows.length} processes (${operations} ${units}): ${parts.join(', ')}`;
}
