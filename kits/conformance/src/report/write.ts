import type { KeyObject } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Report } from '../model';
import { toHtml, type HtmlOptions } from './html/page';
import { toJunit } from './junit';
import { signReport } from './sign';

export interface WrittenReports {
  report: Report;
  files: { json: string; junit: string; html: string };
}

/**
 * Writes DIR/report.json (signed when a key is given), DIR/junit.xml and DIR/report.html. The
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
  return { report: final, files };
}
