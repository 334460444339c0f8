import { escapeXml } from '../xml';

/** HTML-escapes text (the XML rules cover HTML's). */
export const esc = (text: string | number | null | undefined): string => escapeXml(String(text ?? ''));

/** A JSON body laid out for reading; any other body as it came. */
export function readableBody(body: string | null): string {
  if (body === null) return '(no body)';
  if (body === '') return '(empty body)';
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

export const headerLines = (headers: Record<string, string>): string =>
  Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');

/** The contract section's anchor as Markdown renderers (GitHub's) make it. */
export const sectionAnchor = (section: string): string =>
  section
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .trim()
    .replace(/\s/g, '-');
