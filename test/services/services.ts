import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '@marketplace/testing';

/** The six services and the ports `npm start` gives them (tests add an offset). */
export const SERVICES = Object.entries(
  (JSON.parse(readFileSync(join(repoRoot, 'scripts', 'services.json'), 'utf8')) as { services: Record<string, number> })
    .services,
);
