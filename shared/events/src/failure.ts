import type { IHeaders, KafkaMessage, Message } from 'kafkajs';
import { AppError, isRetriable } from '@marketplace/errors';
import { DLT_HEADER } from './headers';

/**
 * What the consumer does with a failure, kept free of I/O so it is tested on its own: retry it,
 * or give up and send the message to the dead-letter topic.
 */

/** Thrown to leave a message unhandled during a stop; kafka.ts logs kafkajs' report of it as info. */
export const STOPPING_MESSAGE = 'consumer stopping; message left for the next consumer';

/** A message that can never be handled, with the reason that goes into its dead-letter headers. */
export class DeadLetter extends Error {
  constructor(
    readonly reason: string,
    readonly code: string,
  ) {
    super(reason);
    this.name = 'DeadLetter';
  }
}

/** Permanent: retrying cannot help (a dead letter, or an AppError that says it is not retriable). */
export function isPermanent(error: unknown): boolean {
  return error instanceof DeadLetter || (error instanceof AppError && !error.retriable);
}

/**
 * Whether attempt number `attempt` (1-based) that failed with `error` should be tried again:
 * retriable errors always (the partition waits, order is kept), unknown errors (a bug, an
 * unexpected driver error) until `unknownAttempts`, permanent ones never.
 */
export function shouldRetry(error: unknown, attempt: number, unknownAttempts: number): boolean {
  if (isPermanent(error)) return false;
  return isRetriable(error) || attempt < unknownAttempts;
}

/** Exponential backoff: doubled after each failure, capped. */
export function nextBackoff(delayMs: number, maxMs: number): number {
  return Math.min(delayMs * 2, maxMs);
}

/** The dead letter for a failure that outlived its retries. */
export function toDeadLetter(error: unknown): DeadLetter {
  if (error instanceof DeadLetter) return error;
  const code = error instanceof AppError ? error.code : 'handler.failed';
  return new DeadLetter(`handler failed: ${(error as Error)?.message ?? String(error)}`, code);
}

/**
 * Classifies a registry decode failure: the registry unreachable or failing is worth retrying;
 * a value that does not match its writer's schema, or cannot be decoded at all, never will be.
 */
export function decodeFailure(error: unknown): DeadLetter | 'retry' {
  const { name, status, paths, message } = error as {
    name?: string;
    status?: number;
    paths?: unknown[];
    message?: string;
  };
  if (name === 'ConfluentSchemaRegistryValidationError') {
    return new DeadLetter(
      `the value does not match its writer's schema at ${JSON.stringify(paths ?? [])}`,
      'event.schema_violation',
    );
  }
  if (isRetriable(error) || name === 'FetchError' || (status !== undefined && status >= 500)) return 'retry';
  return new DeadLetter(`the value could not be decoded: ${message ?? String(error)}`, 'event.undecodable');
}

export function isWireFormat(value: Buffer | null): value is Buffer {
  return value !== null && value.length >= 5 && value[0] === 0;
}

export interface DeadLetterSource {
  topic: string;
  partition: number;
  groupId: string;
  message: Pick<KafkaMessage, 'key' | 'value' | 'headers' | 'offset'>;
}

/** The dead-letter copy: the original bytes and headers, plus where it came from and why. */
export function deadLetterMessage(
  { topic, partition, groupId, message }: DeadLetterSource,
  dead: DeadLetter,
  now = new Date(),
): Message {
  const headers: IHeaders = {
    ...(message.headers ?? {}),
    [DLT_HEADER.reason]: dead.reason.slice(0, 2000),
    [DLT_HEADER.errorCode]: dead.code,
    [DLT_HEADER.sourceTopic]: topic,
    [DLT_HEADER.sourcePartition]: String(partition),
    [DLT_HEADER.sourceOffset]: message.offset,
    [DLT_HEADER.consumerGroup]: groupId,
    [DLT_HEADER.failedAt]: now.toISOString(),
  };
  return { key: message.key, value: message.value, headers };
}
