import type { KeyObject } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Report } from '../model';
import { toHtml, type HtmlOptions } from './html/page';
import { toJunit } from './junit';
import { certificateOf, signCertificate } from './certificate';
import { signReport } from './sign';

export interface WrittenReports {
  report: Report;
  /** certificate.json: only when the report is signed (an unsigned certificate proves nothing). */
  files: { json: string; junit: string; html: string; certificate?: string };
}

/**
 * Writes DIR/report.json (signed when a key is given, with DIR/certificate.json beside it: the run's
 * certified capabilities, signed with the same key), DIR/junit.xml and DIR/report.html. The
 * report is already redacted (runConformance redacts every secret before it returns).
 */
export async function writeReports(
  report: Report,
  dir: string,
  signingKey?: string | Buffer | KeyObject,
  options: HtmlOptions = {},
): Promise<WrittenReports> {
  const final = signingKey === undefined ? report : signReport(report, signingKey);
  await mkdir(dir, { recursive: true });
  const files = { json: join(dir, 'report.json'), junit: join(dir, 'junit.xml'), html: join(dir, 'report.html') };
  await writeFile(files.json, `${JSON.stringify(final, null, 2)}\n`, 'utf8');
  await writeFile(files.junit, toJunit(final), 'utf8');
  await writeFile(files.html, toHtml(final, options), 'utf8');
  if (signingKey === undefined) return { report: final, files };
  const certificate = join(dir, 'certificate.json');
  await writeFile(
    certificate,
    `${JSON.stringify(signCertificate(certificateOf(final), signingKey), null, 2)}\n`,
    'utf8',
  );
  return { report: final, files: { ...files, certificate } };
}
