import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '@marketplace/testing';

/**
 * Runs scripts/proof/faults.mjs with `args`, stopped (SIGTERM) 30 s before `timeoutMs`; prints
 * its report from `printFrom` on (the whole tail when absent), whatever the verdict, so CI's log
 * shows the counts; throws when it did not exit 0 and say that every promise held.
 */
export async function runProof(args: string[], timeoutMs: number, printFrom: string): Promise<void> {
  const child = spawn(process.execPath, [join(repoRoot, 'scripts/proof/faults.mjs'), ...args], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += String(chunk)));
  child.stderr.on('data', (chunk) => (output += String(chunk)));
  const timer = setTimeout(() => child.kill('SIGTERM'), timeoutMs - 30_000);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  clearTimeout(timer);
  const report = output.indexOf(printFrom);
  console.log(report >= 0 ? output.slice(report) : output.slice(-4000));
  if (code !== 0) throw new Error(`proof:faults ${args.join(' ')} exited ${code}:\n${output.slice(-6000)}`);
  expect(output).toMatch(/proof:faults: every promise held/);
}
