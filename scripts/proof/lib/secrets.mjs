// The run's secrets audit (shared/testing's secret-audit, through its build): no log line and no
// metric of any service process of the run, and no error body the traffic got, holds a secret,
// whether by its shape (API keys, signing secrets, tokens, phone fields) or by its exact value
// (every key, secret, token and driver phone number the run issued or saw).
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { root } from '../../services.mjs';

const require = createRequire(join(root, 'package.json'));
const { auditSecrets: audit, auditableFiles, describeFinding } = require('./shared/testing/dist/secret-audit.js');

/** Findings as `file:line kind (match)`, never the value, over `dir`'s logs, metrics and error bodies. */
export function auditSecrets(dir, issued) {
  const values = issued.filter(([, value]) => typeof value === 'string' && value.length >= 8);
  const files = auditableFiles(dir, ['.log', '.metrics', '.jsonl']);
  const findings = audit({ files, issued: values.map(([kind, value]) => ({ kind, value })) });
  return { files: files.length, values: values.length, findings: findings.map((f) => describeFinding(f, root)) };
}
