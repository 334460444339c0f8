import type { DeclaredRoute } from '@marketplace/http';

/** The command-line flag of `node dist/main.js` that prints the service's route table instead of starting it. */
export const ROUTES_FLAG = '--routes';

/** Whether this process was started to print its route table (`node dist/main.js --routes`). */
export function routesRequested(argv: readonly string[] = process.argv): boolean {
  return argv.slice(2).includes(ROUTES_FLAG);
}

/**
 * Prints the route table as one line of JSON (`[{method, path, audience}, ...]`) and exits 0,
 * without connecting to anything; exits 1 with the reason on stderr when the table cannot be built.
 * The operator's review surface (`npm run routes`) and the hostile route suite read it.
 */
export function printRoutesAndExit(declaredRoutes: () => DeclaredRoute[]): void {
  let line: string;
  try {
    line = JSON.stringify(declaredRoutes().map(({ method, path, audience }) => ({ method, path, audience })));
  } catch (error) {
    process.stderr.write(
      `the route table could not be built: ${error instanceof Error ? error.stack : String(error)}\n`,
    );
    process.exit(1);
  }
  process.stdout.write(`${line}\n`, () => process.exit(0));
}
