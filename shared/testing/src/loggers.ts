import { Writable } from 'node:stream';
import { createLogger, type Logger } from '@marketplace/logging';

/** A logger whose lines the test can read back as objects. */
export function captureLogger(service = 'test'): { logger: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
      done();
    },
  });
  return { logger: createLogger({ service, level: 'debug', destination }), lines };
}

/** Warnings and errors only, so a failing test shows what the code complained about. */
export function quietLogger(service = 'test'): Logger {
  return createLogger({ service, level: process.env.TEST_LOG_LEVEL ?? 'error' });
}
