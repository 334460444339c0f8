// The fixture file: what the seed steps return, merged, written with mode 0600 (it holds secrets).
import { chmodSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

const isPlainObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Merges a step's fields into the fixture: objects merge key by key (several steps add to
 * `installations`), anything else may be set once. Two steps writing the same leaf is a bug.
 */
export function mergeFixture(target, fields, path = '') {
  for (const [key, value] of Object.entries(fields ?? {})) {
    const where = path ? `${path}.${key}` : key;
    if (isPlainObject(target[key]) && isPlainObject(value)) mergeFixture(target[key], value, where);
    else if (key in target) throw new Error(`two seed steps set the fixture field ${where}`);
    else target[key] = value;
  }
  return target;
}

/** Writes the file atomically (temporary file, then rename) with mode 0600, creating its folder. */
export function writeFixture(file, fixture) {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, `${JSON.stringify(fixture, null, 2)}\n`, { mode: 0o600 });
    chmodSync(tmp, 0o600); // whatever the umask
    renameSync(tmp, file);
  } finally {
    rmSync(tmp, { force: true });
  }
}
