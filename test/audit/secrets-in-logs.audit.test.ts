import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findSecrets, SERVICE_LOG_DIR } from '@marketplace/testing';

// Runs last in `npm test`: every service process the run started has left its log in
// .test-results/service-logs; none may contain a secret (API keys, signing secrets, tokens).
const files = existsSync(SERVICE_LOG_DIR) ? readdirSync(SERVICE_LOG_DIR).filter((f) => f.endsWith('.log')) : [];

it('found the logs of the service processes of this run', () => {
  // scripts/test.mjs empties the folder before a run; an empty folder means nothing was audited.
  expect(files.length).toBeGreaterThan(0);
});

it('finds no secret in any service log of the run', () => {
  const findings = files.flatMap((file) =>
    findSecrets(readFileSync(join(SERVICE_LOG_DIR, file), 'utf8')).map((f) => `${file}:${f.line} ${f.kind}`),
  );
  expect(findings).toEqual([]);
});
