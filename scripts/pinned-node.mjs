// The Node.js the project runs on: the version in .nvmrc. A machine whose own `node` is another
// version gets it from the npm registry (the `node-<platform>-<arch>` package carries the same
// binary as nodejs.org's archive) into .tools/node/<version> (ignored), once; npm's cache keeps
// the download. `npm start`, `npm test` and CI then run everything on it: the re-executed script
// finds the pinned binary first on PATH, so every `node` and `npm` below it runs on it too.
//
//   node scripts/pinned-node.mjs --bin-dir     prints the folder of the pinned `node` (fetching it if needed)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The exact version .nvmrc pins, without the `v`. */
export function pinnedVersion() {
  const version = readFileSync(join(root, '.nvmrc'), 'utf8').trim().replace(/^v/, '');
  if (!/^\d+\.\d+\.\d+$/.test(version)) throw new Error(`.nvmrc must hold an exact version (x.y.z), not "${version}"`);
  return version;
}

/** The folder of the pinned `node`, fetched from the npm registry the first time. */
export function pinnedBinDir() {
  const version = pinnedVersion();
  const home = join(root, '.tools', 'node', version);
  const bin = join(home, 'bin');
  if (existsSync(join(bin, 'node'))) return bin;
  const pkg = `node-${process.platform}-${process.arch}@${version}`;
  console.error(
    `node: this machine runs ${process.version}; fetching Node.js ${version} (${pkg}) from the npm registry`,
  );
  mkdirSync(dirname(home), { recursive: true });
  const work = mkdtempSync(join(dirname(home), `.fetch-${version}-`));
  try {
    const packed = spawnSync('npm', ['pack', pkg, '--silent', '--pack-destination', work], {
      cwd: work,
      encoding: 'utf8',
      timeout: 300_000,
    });
    const file = packed.stdout?.trim().split('\n').pop();
    if (packed.status !== 0 || !file) throw new Error(`npm pack ${pkg} failed: ${packed.stderr || packed.error}`);
    const unpacked = spawnSync('tar', ['-xzf', join(work, file), '-C', work], { encoding: 'utf8', timeout: 120_000 });
    if (unpacked.status !== 0) throw new Error(`unpacking ${file} failed: ${unpacked.stderr}`);
    rmSync(home, { recursive: true, force: true });
    renameSync(join(work, 'package'), home);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return bin;
}

/**
 * Runs the calling script again on the pinned Node when this process is another version, and
 * exits with its status; returns at once when it already runs on it. `PINNED_NODE=off` skips it
 * (a developer trying another version on purpose).
 */
export function onPinnedNode() {
  if (process.version === `v${pinnedVersion()}` || process.env.PINNED_NODE === 'off') return;
  const bin = pinnedBinDir();
  const result = spawnSync(join(bin, 'node'), process.argv.slice(1), {
    stdio: 'inherit',
    env: { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` },
  });
  if (result.error) throw result.error;
  process.exit(result.status ?? 1);
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv.includes('--bin-dir')) {
  console.log(pinnedBinDir());
}
