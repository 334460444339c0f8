import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// The import rules of .dependency-cruiser.cjs, run as `npm run lint:boundaries` runs them (the
// CLI, with the directories of that script), over two miniature repositories under fixtures/
// (each with its own tsconfig.tests.json mapping @marketplace/<x> to shared/<x>/src) and over
// the real tree. dependency-cruiser's API is ESM-only, so the CLI runs as a child process.

const ROOT = join(__dirname, '..', '..');
const CLI = join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');
const FIXTURES = join(__dirname, 'fixtures');

interface Violation {
  from: string;
  to: string;
  rule: { name: string; severity: string };
  cycle?: { name: string }[];
}

/** The files and directories `npm run lint:boundaries` cruises (its arguments that are not options). */
function lintScope(): string[] {
  const script: string = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts['lint:boundaries'];
  const words = (script.match(/'[^']*'|"[^"]*"|\S+/g) ?? []).map((w) => w.replace(/^['"]|['"]$/g, ''));
  const scope: string[] = [];
  for (let i = 1; i < words.length; i++) {
    if (words[i]!.startsWith('-'))
      i++; // --config FILE, --output-type TYPE
    else scope.push(words[i]!);
  }
  return scope;
}

/** Runs the rules with `cwd` as the repository root; resolves to the violations found. */
function cruise(cwd: string): Promise<Violation[]> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [CLI, '--config', CONFIG, '--output-type', 'json', ...lintScope()],
      { cwd, timeout: 60_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error && !stdout)
          return reject(new Error(`dependency-cruiser failed in ${cwd}: ${error.message}\n${stderr}`));
        try {
          resolve(JSON.parse(stdout).summary.violations as Violation[]);
        } catch {
          reject(new Error(`dependency-cruiser answered no JSON in ${cwd}:\n${stdout.slice(0, 2000)}\n${stderr}`));
        }
      },
    );
  });
}

/** What the broken fixture must report: rule, importing file (or its folder), imported module. */
const BROKEN: [rule: string, from: string, to: RegExp][] = [
  ['domain-is-pure', 'services/kitchen/src/domain/menu.ts', /(^|\/)node_modules\/koa\//], // import type { Context } from 'koa'
  ['domain-is-pure', 'services/kitchen/src/domain/menu.ts', /^shared\/http\/src\/index\.ts$/], // @marketplace/http
  ['domain-is-pure', 'services/kitchen/src/domain/prices.ts', /^services\/kitchen\/src\/adapters\/repository\.ts$/],
  ['domain-is-pure', 'services/kitchen/src/domain/prices.ts', /^net$/], // node:net
  ['no-cross-service', 'services/delivery/src/usecases/assign.ts', /^services\/kitchen\/src\/domain\/menu\.ts$/],
  ['no-cross-service', 'services/delivery/test/delivery.ts', /^services\/kitchen\/test\/support\.ts$/],
  ['root-tests-black-box', 'test/e2e.ts', /^services\/kitchen\/test\/support\.ts$/],
  ['shared-is-shared', 'shared/helpers/src/index.ts', /^services\/kitchen\/src\/domain\/menu\.ts$/],
  ['entry-layers', 'services/kitchen/src/http/routes.ts', /^services\/kitchen\/src\/adapters\/repository\.ts$/], // type-only
  [
    'usecases-through-ports',
    'services/kitchen/src/usecases/serve.ts',
    /^services\/kitchen\/src\/adapters\/repository\.ts$/,
  ],
  ['no-circular', 'services/kitchen/src/usecases/', /^services\/kitchen\/src\/usecases\/(plan|cook)\.ts$/],
  ['not-to-unresolvable', 'services/kitchen/src/usecases/typo.ts', /^\.\/no-such-module$/],
  ['kit-stands-alone', 'kits/certify/src/index.ts', /(^|\/)node_modules\/koa\//], // an undeclared npm package
  ['kit-stands-alone', 'kits/certify/src/index.ts', /^shared\/http\/src\/index\.ts$/], // @marketplace/http
  ['kit-stands-alone', 'kits/certify/src/index.ts', /^services\/kitchen\/src\/domain\/menu\.ts$/],
];

const matches = (v: Violation, [rule, from, to]: [string, string, RegExp]) =>
  v.rule.name === rule && v.from.startsWith(from) && to.test(v.to);

const describeViolation = (v: Violation) =>
  `${v.rule.name}: ${v.from} → ${v.to}${v.cycle ? ` (cycle ${v.cycle.map((c) => c.name).join(' → ')})` : ''}`;

describe('import rules (.dependency-cruiser.cjs)', () => {
  let runs: Record<'broken' | 'clean' | 'real', Promise<Violation[]>>;
  beforeAll(() => {
    // The three cruises run side by side (the real tree takes a few seconds); each test awaits its own.
    runs = { broken: cruise(join(FIXTURES, 'broken')), clean: cruise(join(FIXTURES, 'clean')), real: cruise(ROOT) };
    for (const run of Object.values(runs)) run.catch(() => undefined);
  });

  it.each(BROKEN)(
    '%s reports %s → %s in the broken fixture',
    async (rule, from, to) => {
      const violations = await runs.broken;
      const found = violations.filter((v) => matches(v, [rule, from, to]));
      if (found.length === 0)
        throw new Error(
          `no ${rule} violation from ${from} to ${to}; found:\n${violations.map(describeViolation).join('\n')}`,
        );
      expect(found.every((v) => v.rule.severity === 'error')).toBe(true);
    },
    60_000,
  );

  it('reports nothing else in the broken fixture', async () => {
    const unexpected = (await runs.broken).filter((v) => !BROKEN.some((expected) => matches(v, expected)));
    expect(unexpected.map(describeViolation)).toEqual([]);
  }, 60_000);

  it('reports nothing in the clean fixture (domain with errors, money, node:crypto and node:zlib; routes through a use case; a port implemented by an adapter; a kit of its own files, node built-ins and the dependency its package.json declares)', async () => {
    expect((await runs.clean).map(describeViolation)).toEqual([]);
  }, 60_000);

  it('reports nothing in the real tree', async () => {
    const violations = await runs.real;
    if (violations.length > 0)
      console.error(
        `import rule violations (npm run lint:boundaries):\n${violations.map(describeViolation).join('\n')}`,
      );
    expect(violations.map(describeViolation)).toEqual([]);
  }, 60_000);
});
