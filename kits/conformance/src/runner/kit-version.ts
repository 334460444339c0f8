import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** The kit's version, from its package.json (two levels up from src/runner and from dist/runner alike). */
export function kitVersion(): string {
  try {
    const manifest = JSON.parse(readFileSync(resolve(__dirname, '..', '..', 'package.json'), 'utf8')) as {
      version?: unknown;
    };
    return typeof manifest.version === 'string' ? manifest.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}
