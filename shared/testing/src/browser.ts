import { existsSync } from 'node:fs';

// Headless Chromium for the browser tests: Debian's package, installed by
// scripts/browser/chromium.sh (npm test runs it).
//
// The binary is started directly, not through Debian's /usr/bin/chromium launcher script: the
// launcher sources /etc/chromium.d/*, whose shared-memory check breaks on a machine where
// /dev/shm is mounted twice, and it adds flags of its own. On a loaded two-core machine (the whole
// integration suite running beside it) a first launch has once taken over 30 s, so each attempt
// gets a minute and a failed attempt is tried once more, saying why.

/** Debian's Chromium binary, behind its launcher script. */
export const CHROMIUM_BINARY = '/usr/lib/chromium/chromium';

// launch() gives the browser a fresh temporary profile of its own (and removes it on close); the
// rest keeps Chromium from calling home or updating itself.
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const LAUNCH_TIMEOUT_MS = 60_000;
const LAUNCH_ATTEMPTS = 2;

/** What the tests need of playwright-core's `chromium` (passed in, so this package needs no browser driver). */
export interface ChromiumLauncher<B> {
  launch(options: { executablePath: string; args: string[]; headless: boolean; timeout: number }): Promise<B>;
}

/** The longest launchChromium can take: give the test hook that calls it at least this. */
export const CHROMIUM_LAUNCH_BUDGET_MS = LAUNCH_TIMEOUT_MS * LAUNCH_ATTEMPTS + 5_000;

/**
 * Starts headless Chromium, failing (never skipping) when it is missing: a machine without the
 * browser would otherwise pass the browser tests untested.
 */
export async function launchChromium<B>(chromium: ChromiumLauncher<B>): Promise<B> {
  if (!existsSync(CHROMIUM_BINARY))
    throw new Error(
      `${CHROMIUM_BINARY} is missing: install Debian's chromium with 'bash scripts/browser/chromium.sh' (npm test does it)`,
    );
  let lastError: unknown;
  for (let attempt = 1; attempt <= LAUNCH_ATTEMPTS; attempt += 1) {
    try {
      return await chromium.launch({
        executablePath: CHROMIUM_BINARY,
        args: CHROMIUM_ARGS,
        headless: true,
        timeout: LAUNCH_TIMEOUT_MS,
      });
    } catch (error) {
      lastError = error;
      const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
      process.stderr.write(`launchChromium: attempt ${attempt} of ${LAUNCH_ATTEMPTS} failed: ${reason}\n`);
    }
  }
  throw lastError;
}
