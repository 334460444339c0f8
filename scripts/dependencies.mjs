// The npm dependencies, installed when they are missing or older than the lockfile: `npm start`
// and `npm test` call this first, so a fresh clone needs nothing before them. npm writes
// node_modules/.package-lock.json at every install; a package-lock.json newer than it (a pull, a
// checkout of another branch) means the installed tree may be stale.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Why the dependencies must be installed, or undefined when they are current. */
export function installReason(root) {
  const installed = join(root, 'node_modules', '.package-lock.json');
  if (!existsSync(installed)) return 'node_modules is missing';
  if (statSync(join(root, 'package-lock.json')).mtimeMs > statSync(installed).mtimeMs)
    return 'package-lock.json is newer than the installed packages';
  return undefined;
}

/** Runs `npm ci` when needed; exits with a one-line message if it fails. */
export function ensureDependencies(root, what) {
  const reason = installReason(root);
  if (!reason) return;
  console.log(`${what}: ${reason}; installing the npm dependencies (npm ci)`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`${what}: npm ci failed (exit ${result.status ?? result.signal}); see the lines above`);
    process.exit(1);
  }
}
