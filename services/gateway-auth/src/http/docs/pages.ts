import { PROBLEM_TYPE_PATH, problemTypeUri, statusTitle } from '@marketplace/http';
import { AUDIENCES, DOCS, exportedFileOf, TOPICS_FILE, type DocEntry } from './documents';
import { PROBLEM_TYPES, type ProblemType } from './problem-types';

/** The HTML of the /docs pages written here: the index and the problem types. */

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** Text with markdown code spans (`like this`) as HTML; nothing else is interpreted. */
const inline = (text: string) => escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');

/** A whole page: `head` adds to the head (stylesheets, icons), `body` is the body's content. */
export function page(title: string, head: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
${head}
</head>
<body>
${body}
</body>
</html>
`;
}

const PUBLISHED_ON: Record<DocEntry['publishedOn'], string> = {
  gateway: 'on this gateway, public',
  tenant: 'on this gateway, with a tenant token',
  'provider-delivery': 'on provider-delivery, the provider’s own service',
};

function docCard(doc: DocEntry): string {
  // A URL on this gateway is a link; one on provider-delivery is not (it would resolve here).
  const published =
    doc.publishedOn === 'provider-delivery'
      ? `<code>${escapeHtml(doc.published)}</code>`
      : `<a href="${escapeHtml(doc.published)}">${escapeHtml(doc.published)}</a>`;
  return `<article class="card" id="doc-${doc.name}">
<h3><a href="/docs/${doc.name}">${escapeHtml(doc.title)}</a></h3>
<p>${inline(doc.summary)}</p>
<ul class="links">
<li><span class="label">Reference</span> <a class="button" href="/docs/${doc.name}" aria-label="${escapeHtml(doc.title)} reference">Open</a></li>
<li><span class="label">Published JSON</span> ${published} <small>(${PUBLISHED_ON[doc.publishedOn]})</small></li>
<li><span class="label">Exported file</span> <code>docs/api/${exportedFileOf(doc)}</code></li>
</ul>
</article>`;
}

const TOPICS_CARD = `<article class="card" id="doc-topics">
<h3>Platform topics (AsyncAPI 3.0)</h3>
<p>For services that consume the platform’s events: every Kafka topic (catalog, orders, deliveries, installations,
provider events), its key, its headers and the JSON Schema of each event type, generated from <code>schemas/</code>.</p>
<ul class="links">
<li><span class="label">Exported file</span> <code>docs/api/${TOPICS_FILE}</code></li>
</ul>
</article>`;

const START_HERE = `<section class="start" aria-labelledby="start">
<h2 id="start">Start here</h2>
<dl>
<dt>Authentication</dt>
<dd><strong>Partners:</strong> <code>Authorization: ApiKey &lt;KEY_ID&gt;.&lt;API_SECRET&gt;</code>, the key shown once when a restaurant connects your app.</dd>
<dd><strong>Restaurants and administrators:</strong> <code>Authorization: Bearer &lt;token&gt;</code>, a tenant or administrator token minted by the administrator API.</dd>
<dd><strong>Delivery providers and platforms:</strong> <code>Authorization: Bearer &lt;API_KEY&gt;</code>, the platform account’s key for the environment.</dd>
<dd><strong>Drivers’ apps:</strong> <code>Authorization: Bearer pdd_&lt;id&gt;.&lt;secret&gt;</code>, the driver’s courier token.</dd>
<dd><strong>Topic readers:</strong> no API credential: the topics are read inside the platform’s network.</dd>
<dt>Webhooks and their verification</dt>
<dd>Partner webhooks carry <code>X-Marketplace-Signature</code> (HMAC-SHA256 of <code>{X-Marketplace-Timestamp}.{raw body}</code>
with the signing secret given at connect) and the Standard Webhooks headers <code>webhook-id</code>,
<code>webhook-timestamp</code>, <code>webhook-signature</code>, verifiable with the same secret. Delivery-provider callbacks carry
<code>X-Platform-Signature</code> (HMAC-SHA256 of the raw body). Verify from the raw bytes, in constant time, and refuse old timestamps.</dd>
<dt>Kits</dt>
<dd><code>marketplace-webhooks</code>: verifies all three signatures and signs test payloads (Node, no dependencies).</dd>
<dd><code>sdp-conformance</code>: certifies a delivery provider against the Standard Delivery Provider Contract.</dd>
<dt>Errors and limits</dt>
<dd>Errors are <code>application/problem+json</code> whose <code>type</code>, <code>/docs/problems/&lt;code&gt;</code>, is a page on what the
code means and whether to retry: <a href="${PROBLEM_TYPE_PATH}">all problem types</a>. Answers carry <code>RateLimit-Policy</code>
and <code>RateLimit</code>; a 429 carries <code>Retry-After</code>.</dd>
</dl>
</section>`;

/** The /docs index: "start here", then the documents by audience. */
export function indexPage(head: string): string {
  const sections = AUDIENCES.map((audience) => {
    const cards = DOCS.filter((d) => d.audience === audience.id).map(docCard);
    if (audience.id === 'topics') cards.push(TOPICS_CARD);
    return `<section class="audience" id="${audience.id}" aria-labelledby="${audience.id}-title">
<h2 id="${audience.id}-title">${escapeHtml(audience.title)}</h2>
<p>${escapeHtml(audience.intro)}</p>
<div class="cards">
${cards.join('\n')}
</div>
</section>`;
  });
  const toc = AUDIENCES.map((a) => `<li><a href="#${a.id}">${escapeHtml(a.title)}</a></li>`).join('\n');
  return page(
    'Marketplace API reference',
    head,
    `<div class="page">
<header class="masthead">
<h1>Marketplace API reference</h1>
<p class="lead">Every API of the marketplace and of its delivery provider, by who it is for: open a reference to read it,
or take its OpenAPI document (the published JSON, or the file exported to <code>docs/api/</code>) to generate a client.</p>
</header>
<nav class="toc" aria-label="Audiences"><ul>
${toc}
</ul></nav>
${START_HERE}
${sections.join('\n')}
<footer>Problem types: <a href="${PROBLEM_TYPE_PATH}">${PROBLEM_TYPE_PATH}</a>.</footer>
</div>`,
  );
}

const statusesOf = (type: ProblemType) => type.statuses.map((s) => `${s} ${statusTitle(s)}`).join(', ');

/** The page of one problem type: what `type: /docs/problems/<code>` resolves to. */
export function problemPage(type: ProblemType, head: string): string {
  return page(
    `${type.code}: ${type.title}`,
    head,
    `<div class="page">
<header class="masthead">
<p class="crumbs"><a href="/docs">API reference</a> › <a href="${PROBLEM_TYPE_PATH}">Problem types</a></p>
<h1>${escapeHtml(type.title)}</h1>
<p class="lead"><code>${escapeHtml(type.code)}</code></p>
</header>
<dl class="facts">
<dt>HTTP status</dt><dd>${escapeHtml(statusesOf(type))}</dd>
<dt>Problem type</dt><dd><code>${escapeHtml(problemTypeUri(type.code))}</code></dd>
<dt>Where</dt><dd>${escapeHtml(type.apis)}</dd>
</dl>
<h2>What it means</h2>
<p>${inline(type.meaning)}</p>
<h2>What to do</h2>
<p>${inline(type.action)}</p>
<h2>Retry</h2>
<p>${inline(type.retry)}</p>
</div>`,
  );
}

/** The list of every problem type, by status. */
export function problemIndexPage(head: string): string {
  const rows = [...PROBLEM_TYPES.values()]
    .sort((a, b) => a.statuses[0]! - b.statuses[0]! || a.code.localeCompare(b.code))
    .map(
      (t) =>
        `<tr><td>${t.statuses.join(', ')}</td><td><a href="${problemTypeUri(t.code)}"><code>${escapeHtml(t.code)}</code></a></td><td>${escapeHtml(t.title)}</td></tr>`,
    );
  return page(
    'Problem types',
    head,
    `<div class="page">
<header class="masthead">
<p class="crumbs"><a href="/docs">API reference</a></p>
<h1>Problem types</h1>
<p class="lead">Every error answer is <code>application/problem+json</code> (RFC 9457) with a stable <code>code</code> and
<code>type: /docs/problems/&lt;code&gt;</code>, a relative reference to the page of that code: resolve it against the URI you
called.</p>
</header>
<div class="table-wrap"><table>
<thead><tr><th>Status</th><th>Code</th><th>Title</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table></div>
</div>`,
  );
}
