import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

// The READMEs are maps: short, starting with where things are, and every path they name exists.
// A file moved or renamed without its map fails here, not in a newcomer's first minute.

const ROOT = join(__dirname, '..', '..');
const dirs = (parent: string) =>
  readdirSync(join(ROOT, parent)).filter((name) => statSync(join(ROOT, parent, name)).isDirectory());

function markdownUnder(dir: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(join(ROOT, dir))) {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) found.push(...markdownUnder(path));
    else if (name.endsWith('.md')) found.push(path);
  }
  return found;
}

const SERVICES = dirs('services');
const SHARED = dirs('shared');
const KITS = existsSync(join(ROOT, 'kits')) ? dirs('kits') : [];
const MAPS = [
  'README.md',
  ...SERVICES.map((s) => `services/${s}/README.md`),
  ...SHARED.map((p) => `shared/${p}/README.md`).filter((p) => existsSync(join(ROOT, p))),
  ...KITS.map((k) => `kits/${k}/README.md`).filter((p) => existsSync(join(ROOT, p))),
  ...(existsSync(join(ROOT, 'docs')) ? markdownUnder('docs') : []),
];

const TOP = /^(services|shared|kits|scripts|docs|test|schemas|deploy|\.ci)\//;
const LOCAL = /^(src|test|docs)\//;

/**
 * Paths a markdown file names (in backticks, or as a relative link target), each with where it may
 * be: from the repository root, from the file's folder, or (the root README's or docs' `src/http`, said of
 * every service) in some service.
 */
function pathsNamedIn(file: string): { named: string; places: string[] }[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const candidates = [
    ...[...text.matchAll(/`([^`\s]+)`/g)].map((m) => m[1]!),
    ...[...text.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)].map((m) => m[1]!).filter((t) => !/^[a-z]+:/.test(t)),
  ];
  const named = new Set<string>();
  for (const raw of candidates) {
    const target = raw.replace(/[:#].*$/, '').replace(/[.,;]$/, '');
    if (/[*<>{}$]/.test(target) || target.includes('...')) continue; // a pattern or a placeholder
    if (TOP.test(target) || LOCAL.test(target) || target.startsWith('./') || target.startsWith('../'))
      named.add(target);
  }
  return [...named].map((target) => ({
    named: target,
    places: [
      target,
      relative(ROOT, join(ROOT, dirname(file), target)),
      ...(/^(services|shared|kits)\//.test(file) ? [] : SERVICES.map((s) => `services/${s}/${target}`)),
    ],
  }));
}

describe('READMEs as maps', () => {
  it('the root README is short: what it is, the two commands, where each concern lives, links', () => {
    const lines = readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n').length;
    expect(lines).toBeLessThanOrEqual(220);
  });

  it.each(SERVICES)('services/%s/README.md starts with a "Where things are" table', (service) => {
    const text = readFileSync(join(ROOT, 'services', service, 'README.md'), 'utf8');
    const lines = text.split('\n');
    const heading = lines.findIndex((l) => /^#+\s+where things are/i.test(l));
    expect(heading).toBeGreaterThanOrEqual(0);
    expect(heading).toBeLessThan(30);
    expect(lines.slice(heading + 1, heading + 8).some((l) => l.trim().startsWith('|'))).toBe(true);
  });

  it.each(SHARED)('shared/%s has a README', (pkg) => {
    expect(existsSync(join(ROOT, 'shared', pkg, 'README.md'))).toBe(true);
  });

  it.each(KITS)('kits/%s has a README', (kit) => {
    expect(existsSync(join(ROOT, 'kits', kit, 'README.md'))).toBe(true);
  });

  it('every path a README or a page of docs/ names exists', () => {
    const missing = MAPS.flatMap((file) =>
      pathsNamedIn(file)
        .filter(({ places }) => !places.some((place) => existsSync(join(ROOT, place))))
        .map(({ named }) => `${file}: ${named}`),
    );
    expect(missing).toEqual([]);
  });
});
