import { listen, type ListenIo } from './listen';
import { listenSettings, USAGE, UsageError } from './options';

/**
 * `marketplace-webhooks listen ...`: the exit code (0 stopped by SIGINT or SIGTERM, 1 the key
 * refused, 2 a usage error). Secrets come from the options or the environment and are never printed.
 */
export async function main(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  io?: ListenIo,
): Promise<number> {
  let settings;
  try {
    settings = listenSettings(argv, env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`marketplace-webhooks: ${error.message}\n\n${USAGE}`);
    return 2;
  }
  if (!settings) {
    process.stdout.write(USAGE);
    return 0;
  }
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    return await listen(settings, stop.signal, io);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
