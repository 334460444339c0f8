import type { Exchange, TestResult } from '../../model';
import { esc, headerLines, readableBody } from './format';

type ReportedCallback = TestResult['evidence']['callbacks'][number];

function exchangeSummary(exchange: Exchange): string {
  const answer =
    exchange.status === null
      ? `<span class="status-none">no answer: ${esc(exchange.error ?? '')}</span>`
      : `<span class="status-${String(exchange.status)[0]}">${exchange.status}</span>`;
  const path = exchange.url.replace(/^https?:\/\/[^/]+/, '');
  return `${esc(exchange.method)} ${esc(path)} → ${answer} <span class="muted">${exchange.durationMs} ms, ${exchange.responseBytes} B</span>`;
}

function renderExchange(exchange: Exchange, repeats: number): string {
  const more =
    repeats > 0 ? ` <span class="muted">(and ${repeats} more identical answer${repeats > 1 ? 's' : ''})</span>` : '';
  return `<details class="exchange"><summary>${exchangeSummary(exchange)}${more}</summary>
<div class="muted">Request, ${esc(exchange.startedAt)}</div>
<pre>${esc(`${exchange.method} ${exchange.url}\n${headerLines(exchange.requestHeaders)}`)}</pre>
${exchange.requestBody === null ? '' : `<pre>${esc(readableBody(exchange.requestBody))}</pre>`}
<div class="muted">Response${exchange.error ? `: ${esc(exchange.error)}` : ''}</div>
${exchange.status === null ? '' : `<pre>${esc(`${exchange.status}\n${headerLines(exchange.responseHeaders)}`)}</pre><pre>${esc(readableBody(exchange.responseBody))}</pre>`}
</details>`;
}

const sameAnswer = (a: Exchange, b: Exchange): boolean =>
  a.method === b.method &&
  a.url === b.url &&
  a.status === b.status &&
  a.responseBody === b.responseBody &&
  a.requestBody === b.requestBody;

/** Exchanges in order, a run of identical ones (a status polled while nothing moved) shown once. */
export function renderExchanges(exchanges: readonly Exchange[]): string {
  const parts: string[] = [];
  for (let index = 0; index < exchanges.length;) {
    let end = index + 1;
    while (end < exchanges.length && sameAnswer(exchanges[index]!, exchanges[end]!)) end += 1;
    parts.push(renderExchange(exchanges[index]!, end - index - 1));
    index = end;
  }
  return parts.join('\n');
}

export function renderCallbacks(callbacks: readonly ReportedCallback[]): string {
  return callbacks
    .map(
      (
        callback,
      ) => `<details class="callback"><summary>callback at ${esc(callback.label)} → answered ${callback.answeredStatus} <span class="muted">${esc(new Date(callback.receivedAt).toISOString())}</span></summary>
<pre>${esc(`${callback.path}\n${headerLines(callback.headers)}`)}</pre>
<pre>${esc(readableBody(callback.body))}</pre>
</details>`,
    )
    .join('\n');
}

/** A test's evidence, folded: exchanges then callbacks. Empty when it has none. */
export function renderEvidence(test: TestResult): string {
  const { exchanges, callbacks } = test.evidence;
  if (exchanges.length === 0 && callbacks.length === 0) return '';
  const label = `evidence: ${exchanges.length} exchange${exchanges.length === 1 ? '' : 's'}, ${callbacks.length} callback${callbacks.length === 1 ? '' : 's'}`;
  return `<details><summary>${label}</summary>
${exchanges.length > 0 ? `<h4>Exchanges with the provider</h4>\n${renderExchanges(exchanges)}` : ''}
${callbacks.length > 0 ? `<h4>Callbacks received</h4>\n${renderCallbacks(callbacks)}` : ''}
</details>`;
}
