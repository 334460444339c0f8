import { exportedDocuments } from '../openapi/exported-documents';
import { AUDIENCES, DOCS, exportedFileOf, TOPICS_FILE } from './documents';
import { escapeHtml, indexPage } from './pages';

const HEAD = '<link rel="stylesheet" href="/docs/assets/docs.css?v=0">';
const html = indexPage(HEAD);

/** The HTML of the element of this tag holding `id="<id>"` (its own or a child's), to its closing tag. */
function element(id: string, tag: 'article' | 'section'): string {
  const found = html.indexOf(`id="${id}"`);
  expect(found).toBeGreaterThan(-1);
  return html.slice(html.lastIndexOf(`<${tag}`, found), html.indexOf(`</${tag}>`, found) + tag.length + 3);
}

describe('the /docs index', () => {
  it.each(DOCS.map((d) => [d.name, d] as const))(
    'lists %s in its audience: link to its page, its published JSON and its exported file, and who it is for',
    (name, doc) => {
      const card = element(`doc-${name}`, 'article');
      expect(card).toContain(`href="/docs/${name}"`);
      expect(card).toContain(escapeHtml(doc.title));
      expect(card).toContain(escapeHtml(doc.published));
      expect(card).toContain(`docs/api/${exportedFileOf(doc)}`);
      expect(card).toContain(escapeHtml(doc.summary.split('`')[0]!));
      // A URL on this gateway is a link; one on provider-delivery is shown, not linked.
      expect(card.includes(`href="${doc.published}"`)).toBe(doc.publishedOn !== 'provider-delivery');
      expect(element(doc.audience, 'section')).toContain(`id="doc-${name}"`);
    },
  );

  it('lists every document once, and each exported file of /docs is on it', () => {
    for (const doc of DOCS) expect(html.split(`id="doc-${doc.name}"`).length).toBe(2);
    const files = exportedDocuments().map((d) => d.file);
    for (const doc of DOCS) expect(files).toContain(exportedFileOf(doc));
    expect(element('topics', 'section')).toContain(`docs/api/${TOPICS_FILE}`);
    expect(files).toContain(TOPICS_FILE);
  });

  it('has a section per audience, in order, each with at least one entry', () => {
    const positions = AUDIENCES.map((a) => html.indexOf(`<section class="audience" id="${a.id}"`));
    expect(positions.every((p) => p > -1)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    for (const a of AUDIENCES) expect(element(a.id, 'section')).toContain('<article class="card"');
  });

  it('starts with authentication per audience, webhooks and their verification, the kits and the problem types', () => {
    const start = element('start', 'section');
    for (const text of [
      'ApiKey &lt;KEY_ID&gt;.&lt;API_SECRET&gt;',
      'Bearer &lt;token&gt;',
      'Bearer &lt;API_KEY&gt;',
      'Bearer pdd_&lt;id&gt;.&lt;secret&gt;',
      'X-Marketplace-Signature',
      'webhook-signature',
      'X-Platform-Signature',
      'marketplace-webhooks',
      'sdp-conformance',
      'href="/docs/problems"',
      'RateLimit-Policy',
    ])
      expect(start).toContain(text);
  });

  it('is styled by its stylesheet alone: no inline style, no script, readable on a phone', () => {
    expect(html).toContain(HEAD);
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(html).not.toMatch(/<style|style="|<script/i);
  });
});
