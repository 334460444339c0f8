#!/usr/bin/env node
// The chart's copies of files kept elsewhere in the repository. Helm reads only files inside the
// chart, so deploy/helm/marketplace/files/ holds a copy of each; `npm run deploy:check` fails when
// a copy differs from its source. After changing a source:
//
//   node scripts/deploy/chart-files.mjs      copies every source over its copy (and says which changed)
import { copyFileSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** copy in the chart -> its source, both from the repository root. */
export const CHART_COPIES = {
  'deploy/helm/marketplace/files/topics.json': 'schemas/topics.json',
  'deploy/helm/marketplace/files/alerts.yaml': 'deploy/observability/alerts.yaml',
  'deploy/helm/marketplace/files/dashboard.json': 'deploy/observability/dashboard.json',
};

const read = (path) => {
  try {
    return readFileSync(join(root, path), 'utf8');
  } catch {
    return undefined;
  }
};

/** The copies that differ from their sources (or are missing). */
export const staleCopies = () =>
  Object.entries(CHART_COPIES)
    .filter(([copy, source]) => read(copy) !== read(source))
    .map(([copy]) => copy);

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const stale = staleCopies();
  for (const copy of stale) copyFileSync(join(root, CHART_COPIES[copy]), join(root, copy));
  console.log(stale.length ? stale.map((copy) => `copied ${CHART_COPIES[copy]} to ${copy}`).join('\n') : 'up to date');
}
