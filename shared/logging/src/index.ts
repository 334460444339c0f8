import pino, { type Logger, type LoggerOptions } from 'pino';
import { redact } from './redaction';

export type { Logger } from 'pino';
export { redact, isRedactedKey, REDACTED } from './redaction';

export interface LoggerSettings {
  service: string;
  level?: string;
  /** Where lines go; standard output by default. Tests pass a stream to read what was written. */
  destination?: pino.DestinationStream;
}

/**
 * JSON lines on stdout, one object per event, with `service` on every line. Every object logged
 * passes through the central redaction list, at any depth, before it is serialised.
 */
export function createLogger({ service, level = 'info', destination }: LoggerSettings): Logger {
  const options: LoggerOptions = {
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    messageKey: 'msg',
    formatters: {
      level: (label) => ({ level: label }),
      log: (object) => redact(object) as Record<string, unknown>,
    },
    serializers: {
      err: serializeError,
      error: serializeError,
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

/** Errors keep their name, code and stack in logs (never in response bodies); causes are followed once. */
function serializeError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const e = error as Error & { code?: unknown; kind?: unknown; cause?: unknown };
  return {
    type: e.name,
    message: e.message,
    errorCode: typeof e.code === 'string' || typeof e.code === 'number' ? e.code : undefined,
    kind: e.kind,
    stack: e.stack,
    cause: e.cause instanceof Error ? { type: e.cause.name, message: e.cause.message } : undefined,
  };
}
