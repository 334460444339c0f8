import type { Setting } from '@marketplace/config';
import type { PlatformTopics, TopicMap } from '@marketplace/events';
import { createLogger } from '@marketplace/logging';
import { readConfig, startService, type RunningService, type ServiceDefinition } from './service';

/**
 * The entry point of a service process. Start-up failures, a failed stop and anything thrown and
 * never caught are logged as one fatal JSON line, and the process exits 1. A signal during
 * start-up exits at once (nothing is being served yet).
 */
export function runService<S extends Record<string, Setting<unknown>>, M extends TopicMap = PlatformTopics>(
  definition: ServiceDefinition<S, M>,
): void {
  readConfig(definition); // a configuration error ends the process here, with its one line
  const logger = createLogger({ service: definition.name, level: process.env.LOG_LEVEL || 'info' });
  const fail = (message: string, error: unknown) => {
    logger.fatal({ err: error }, message);
    process.exit(1);
  };
  process.on('uncaughtException', (error) => fail('uncaught exception', error));
  process.on('unhandledRejection', (reason) => fail('unhandled promise rejection', reason));

  let running: RunningService | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (!running) {
      logger.info({ signal }, 'signal during start-up; exiting');
      process.exit(0);
    }
    const limit = running.shutdownTimeoutMs;
    const timer = setTimeout(() => fail('graceful stop timed out', new Error(`${limit} ms after ${signal}`)), limit);
    timer.unref();
    running.stop().then(
      () => process.exit(0),
      (error) => fail('error while stopping', error),
    );
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  startService(definition).then(
    (service) => {
      running = service;
    },
    (error) => fail('failed to start', error),
  );
}
