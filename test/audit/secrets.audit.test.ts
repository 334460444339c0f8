import { join } from 'node:path';
import {
  auditableFiles,
  auditSecrets,
  describeFinding,
  ERROR_BODIES_DIR,
  readIssuedSecrets,
  repoRoot,
  SERVICE_LOG_DIR,
  stackEnv,
} from '@marketplace/testing';

// Runs last in `npm test`: every service process the run started has left its log (and its last
// /metrics scrape) in .test-results/service-logs, and the shared test clients kept the error bodies
// they got in .test-results/error-bodies. None may hold a secret: neither the shape of one (API
// keys, signing secrets, courier and tracking tokens, bearer and OAuth tokens, Authorization
// values, phone numbers) nor any exact value the run issued or saw (.test-results/issued-secrets:
// opaque OAuth tokens, callback tokens, driver phone numbers included). Findings say kind and
// file:line, never the value. The scanning itself is unit-tested in shared/testing
// (secret-audit.test.ts), with planted secrets.
const logs = auditableFiles(SERVICE_LOG_DIR, ['.log']);
const metrics = auditableFiles(SERVICE_LOG_DIR, ['.metrics']);
const errorBodies = auditableFiles(ERROR_BODIES_DIR, ['.jsonl']);
// The secured stack's passwords too: every service signed in to Kafka, the registry and Redis with them.
const stackPasswords = ['KAFKA_SASL_PASSWORD', 'SCHEMA_REGISTRY_PASSWORD', 'REDIS_PASSWORD'].flatMap((name) => {
  const value = stackEnv()[name];
  return value ? [{ kind: `the stack's ${name}`, value }] : [];
});
const issued = [...readIssuedSecrets(), ...stackPasswords];
const relative = join(repoRoot, '.test-results');

it('found the logs of the service processes of this run', () => {
  // scripts/test.mjs empties the folder before a run; an empty folder means nothing was audited.
  expect(logs.length).toBeGreaterThan(0);
});

it('found the secrets the run issued (the test helpers record them)', () => {
  expect(issued.length).toBeGreaterThan(0);
});

it('finds no secret in any service log of the run', () => {
  expect(auditSecrets({ files: logs, issued }).map((f) => describeFinding(f, relative))).toEqual([]);
});

it('finds no secret in any metric label of the run', () => {
  expect(auditSecrets({ files: metrics, issued }).map((f) => describeFinding(f, relative))).toEqual([]);
});

it('finds no secret in any error body the tests received', () => {
  expect(auditSecrets({ files: errorBodies, issued }).map((f) => describeFinding(f, relative))).toEqual([]);
});
