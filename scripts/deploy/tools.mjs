// The tools of `npm run deploy:check`, pinned, installed into the ignored folder .tools/ of the
// repository:
//
//   helm, kubeconform   `go install <module>@<version>` with GOBIN=.tools/bin: Go's default module
//                       proxy and Go's own module and build caches, so a fresh clone on a machine
//                       that built them once links them in seconds.
//   Kubernetes schemas  kubeconform downloads its schemas from GitHub by default, which this
//                       project's machines cannot reach. The PyPI package kubernetes-validate
//                       ships the Kubernetes OpenAPI as JSON Schema (every version from 1.25 on),
//                       so pip fetches that one pinned, hash-checked wheel (pip's cache keeps it)
//                       and we turn the versions we check into kubeconform's standalone layout.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const GO_TOOLS = {
  helm: { pkg: 'helm.sh/helm/v4/cmd/helm', module: 'helm.sh/helm/v4', version: 'v4.3.1' },
  kubeconform: {
    pkg: 'github.com/yannh/kubeconform/cmd/kubeconform',
    module: 'github.com/yannh/kubeconform',
    version: 'v0.8.0',
  },
};
export const SCHEMA_PACKAGE = {
  name: 'kubernetes-validate',
  version: '1.37.0',
  sha256: '85136d018a27b50ec7fc049d902bfa5193f5976807e6c0f408e3ab6fe078cad9',
};

/** Runs a command, bounded (a first `go install` of helm takes minutes; a hung download must end). */
function run(command, args, options = {}) {
  const result = spawnSync(command, args, {
    encoding: 'utf8',
    timeout: 20 * 60_000,
    killSignal: 'SIGKILL',
    ...options,
  });
  if (result.status !== 0)
    throw new Error(
      `${command} ${args.join(' ')} failed (${result.error?.message ?? `exit ${result.status}`}):\n${result.stderr ?? ''}`,
    );
  return result.stdout;
}

/** The pinned version is installed when the binary's build info names it (`go version -m`). */
function installedVersion(bin, module) {
  if (!existsSync(bin)) return undefined;
  const info = spawnSync('go', ['version', '-m', bin], { encoding: 'utf8' }).stdout ?? '';
  return new RegExp(`^\\s*mod\\s+${module.replace(/\./g, '\\.')}\\s+(\\S+)`, 'm').exec(info)?.[1];
}

/** Installs helm and kubeconform when missing or of another version; returns their paths. */
export function ensureGoTools(toolsDir) {
  const binDir = join(toolsDir, 'bin');
  mkdirSync(binDir, { recursive: true });
  const paths = {};
  for (const [name, tool] of Object.entries(GO_TOOLS)) {
    const bin = join(binDir, name);
    if (installedVersion(bin, tool.module) !== tool.version) {
      console.log(`installing ${name} ${tool.version} (go install ${tool.pkg}@${tool.version})`);
      run('go', ['install', `${tool.pkg}@${tool.version}`], {
        cwd: toolsDir, // outside any go.mod of ours
        env: { ...process.env, GOBIN: binDir },
        stdio: ['ignore', 'inherit', 'pipe'],
      });
    }
    paths[name] = bin;
  }
  return paths;
}

/**
 * kubeconform's schema folder for a Kubernetes version (e.g. 1.29.0), in its own naming:
 * <dir>/v1.29.0-standalone-strict/deployment-apps-v1.json. "strict" schemas refuse unknown fields.
 */
export function ensureSchemas(toolsDir, kubeVersion) {
  const root = join(toolsDir, 'kubernetes-json-schema');
  const out = join(root, `v${kubeVersion}-standalone-strict`);
  const stamp = join(out, '.from');
  const source = `${SCHEMA_PACKAGE.name}==${SCHEMA_PACKAGE.version}`;
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === source) return root;

  const downloads = join(toolsDir, 'downloads');
  mkdirSync(downloads, { recursive: true });
  const wheel = join(downloads, `kubernetes_validate-${SCHEMA_PACKAGE.version}-py3-none-any.whl`);
  if (!existsSync(wheel)) {
    console.log(`downloading ${source} (pip, hash-checked)`);
    const requirements = join(downloads, 'requirements.txt');
    writeFileSync(requirements, `${source} --hash=sha256:${SCHEMA_PACKAGE.sha256}\n`);
    run('python3', [
      '-m',
      'pip',
      'download',
      '--quiet',
      '--no-deps',
      '--only-binary=:all:',
      '--require-hashes',
      '-r',
      requirements,
      '-d',
      downloads,
    ]);
  }
  // Only this version's strict schemas leave the wheel (a zip): about 2 MB of its 72.
  const extracted = join(toolsDir, 'tmp', `v${kubeVersion}`);
  rmSync(extracted, { recursive: true, force: true });
  const prefix = `kubernetes_validate/kubernetes-json-schema/v${kubeVersion}-local-strict/`;
  run('python3', [
    '-c',
    'import sys, zipfile\nz = zipfile.ZipFile(sys.argv[1])\nnames = [n for n in z.namelist() if n.startswith(sys.argv[2])]\nif not names: sys.exit("no schemas for " + sys.argv[2])\nz.extractall(sys.argv[3], names)',
    wheel,
    prefix,
    extracted,
  ]);
  bundle(join(extracted, prefix), out);
  rmSync(join(toolsDir, 'tmp'), { recursive: true, force: true });
  writeFileSync(stamp, source);
  return root;
}

/**
 * kubernetes-validate's schemas refer to one shared file (`/api/_definitions.json#/$defs/...`,
 * resolved against an https $id), which kubeconform would try to download. Each kind's schema is
 * rewritten to carry the definitions it uses under its own $defs: the same schema, self-contained.
 */
function bundle(from, out) {
  const definitions = JSON.parse(readFileSync(join(from, '_definitions.json'), 'utf8')).$defs;
  const refs = (text) => [...text.matchAll(/"\$ref":\s*"#\/\$defs\/([^"]+)"/g)].map((m) => m[1]);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  for (const file of readdirSync(from)) {
    if (!file.endsWith('.json') || file.startsWith('_') || file === 'all.json') continue;
    const text = readFileSync(join(from, file), 'utf8').replaceAll('"/api/_definitions.json#/$defs/', '"#/$defs/');
    const schema = JSON.parse(text);
    if (!schema['x-kubernetes-group-version-kind']) continue; // a part of a kind, not a kind
    const needed = new Set();
    const queue = refs(text);
    while (queue.length > 0) {
      const name = queue.pop();
      if (needed.has(name)) continue;
      needed.add(name);
      queue.push(...refs(JSON.stringify(definitions[name])));
    }
    delete schema.$id;
    schema.$defs = Object.fromEntries([...needed].sort().map((name) => [name, definitions[name]]));
    writeFileSync(join(out, file), JSON.stringify(schema));
  }
}
