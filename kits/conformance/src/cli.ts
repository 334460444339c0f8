import { createPrivateKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Report } from './model';
import { parseArgs, runSettings, UsageError, type Flags, type RunSettings } from './options';
import { DeclarationError, loadDeclaration } from './runner/declaration';
import { runConformance } from './runner/run-conformance';
import { verifyReport } from './report/sign';
import { writeReports } from './report/write';

export const USAGE = `sdp-conformance: certifies a delivery provider against the Standard Delivery Provider Contract 1.1.0

Usage:
  sdp-conformance [run] --base-url URL --api-key KEY --webhook-secret SECRET --declaration FILE --report DIR [options]
  sdp-conformance [run] --fixture FILE --report DIR [options]
  sdp-conformance verify --report FILE [--public-key PEM]

run (the default):
  --base-url URL            the provider's base URL (ends in /v1)
  --api-key KEY             the API key the platform sends as Bearer (or env SDP_API_KEY)
  --webhook-secret SECRET   the secret that signs the provider's callbacks (or env SDP_WEBHOOK_SECRET)
                            Prefer the environment variables: a command line is visible to other users.
  --fixture FILE            a demo seed fixture: its "provider" entry gives baseUrl, apiKey and webhookSecret
  --declaration FILE        the capability declaration (default: the kit's declarations/provider-delivery.json)
  --report DIR              where report.json, junit.xml and report.html go
  --callback-port N         the callback receiver's local port (default 0: a free port)
  --callback-host HOST      the receiver's listen address (default 127.0.0.1)
  --callback-base-url URL   a public URL that forwards to the receiver, for a provider elsewhere
  --signing-key PEM         an Ed25519 private key (PKCS#8 PEM file): report.json is signed with it
  --concurrency N           tests run at once (default 8)
  --only IDS                run only these test ids (comma-separated); the others are skipped
  --spec-url URL            where the contract is published (the HTML report links each test's section)

verify: checks report.json's signature (and, with --public-key, that this key made it); exits 0 when valid.

Exit codes: 0 every applicable test passed (verify: the signature is valid); 1 a test failed (verify: invalid);
2 a usage error (a missing option, an invalid declaration, an unreadable key).
`;

const print = (line: string): void => void process.stdout.write(`${line}\n`);
const printError = (line: string): void => void process.stderr.write(`${line}\n`);

function readSigningKey(file: string | undefined): KeyObject | undefined {
  if (file === undefined) return undefined;
  let key: KeyObject;
  try {
    key = createPrivateKey(readFileSync(file));
  } catch (error) {
    throw new UsageError(`--signing-key ${file}: ${(error as Error).message}`);
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new UsageError(`--signing-key ${file} is not an Ed25519 private key`);
  return key;
}

function printSummary(report: Report, dir: string): void {
  const { summary } = report;
  print('');
  for (const entry of report.capabilities.filter((capability) => capability.declared)) {
    print(
      `${entry.certified ? 'CERTIFIED    ' : 'NOT CERTIFIED'} ${entry.capability} (${entry.passed} passed, ${entry.failed} failed, ${entry.skipped} skipped)`,
    );
  }
  print(
    `${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped of ${summary.total} tests: ${summary.failed === 0 ? 'PASSED' : 'FAILED'}`,
  );
  print(
    `reports: ${dir}/report.json, ${dir}/junit.xml, ${dir}/report.html${report.signature ? ' (report.json signed)' : ''}`,
  );
}

async function run(settings: RunSettings): Promise<number> {
  const declaration = loadDeclaration(settings.declarationFile);
  const signingKey = readSigningKey(settings.signingKeyFile);
  print(
    `sdp-conformance: ${declaration.provider} at ${settings.baseUrl}, contract ${declaration.contract.version} (${declaration.contract.revision})`,
  );
  const report = await runConformance({
    baseUrl: settings.baseUrl,
    apiKey: settings.apiKey,
    webhookSecret: settings.webhookSecret,
    declaration,
    callbackPort: settings.callbackPort,
    callbackHost: settings.callbackHost,
    callbackBaseUrl: settings.callbackBaseUrl,
    concurrency: settings.concurrency,
    only: settings.only,
    log: print,
  });
  const written = await writeReports(report, settings.reportDir, signingKey, { specUrl: settings.specUrl });
  printSummary(written.report, settings.reportDir);
  return report.summary.failed === 0 ? 0 : 1;
}

function verify(flags: Flags): number {
  const file = flags.report;
  if (typeof file !== 'string') throw new UsageError('verify needs --report FILE');
  let report: Report;
  let publicKey: Buffer | undefined;
  try {
    report = JSON.parse(readFileSync(file, 'utf8')) as Report;
    publicKey = typeof flags['public-key'] === 'string' ? readFileSync(flags['public-key']) : undefined;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const verdict = verifyReport(report, publicKey);
  print(`${verdict.valid ? 'VALID' : 'INVALID'}: ${verdict.reason}`);
  if (report.summary && report.provider && report.contract) {
    const { summary } = report;
    print(
      `report: ${report.provider.name} at ${report.provider.baseUrl}, contract ${report.contract.version} (${report.contract.revision}), ${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped`,
    );
  }
  return verdict.valid ? 0 : 1;
}

/** The command: returns the exit code (bin/sdp-conformance.js exits with it). */
export async function main(argv: readonly string[]): Promise<number> {
  try {
    const { command, flags } = parseArgs(argv);
    if (command === 'help') return (print(USAGE), 0);
    if (command === 'verify') return verify(flags);
    return await run(runSettings(flags));
  } catch (error) {
    if (error instanceof UsageError || error instanceof DeclarationError) {
      printError(`sdp-conformance: ${error.message}`);
      if (error instanceof UsageError) printError('Run sdp-conformance --help for the options.');
      return 2;
    }
    throw error;
  }
}
