import { AppError } from '@marketplace/errors';

/**
 * Redis holds rate limits, locks and caches: without it a service cannot decide safely, so it
 * answers 503 with Retry-After (fail closed) instead of a 500 or an unlimited request.
 */
export async function whileRedisAnswers<T>(operation: Promise<T>): Promise<T> {
  try {
    return await operation;
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError(
      'unavailable',
      'service.unavailable',
      'The service is temporarily unavailable; try again shortly.',
      { cause: error, retryAfterSeconds: 1 },
    );
  }
}
