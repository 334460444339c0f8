/** The page's only style sheet, inline so the page is one file that works anywhere (no scripts, no fetches). */
export const STYLE = `
:root { --pass: #1a7f37; --fail: #cf222e; --skip: #6e7781; --line: #d0d7de; --soft: #f6f8fa; --text: #1f2328; }
* { box-sizing: border-box; }
body { font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--text); margin: 0; padding: 24px 32px 64px; max-width: 1400px; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 18px; margin: 32px 0 8px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
h2 small { font-weight: normal; color: var(--skip); font-size: 13px; margin-left: 8px; }
.verdict { display: inline-block; padding: 6px 14px; border-radius: 6px; font-weight: 700; color: #fff; margin: 12px 0; font-size: 16px; }
.verdict.pass { background: var(--pass); } .verdict.fail { background: var(--fail); }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 8px 0 16px; }
dl.facts dt { color: var(--skip); } dl.facts dd { margin: 0; word-break: break-all; }
table { border-collapse: collapse; width: 100%; margin: 8px 0; }
th, td { text-align: left; vertical-align: top; padding: 6px 8px; border-bottom: 1px solid var(--line); }
th { background: var(--soft); font-weight: 600; }
td.id { white-space: nowrap; font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 13px; }
.badge { display: inline-block; min-width: 44px; text-align: center; padding: 1px 8px; border-radius: 10px; font-size: 12px; font-weight: 700; color: #fff; text-transform: uppercase; }
.badge.pass { background: var(--pass); } .badge.fail { background: var(--fail); } .badge.skip { background: var(--skip); }
.badge.yes { background: var(--pass); } .badge.no { background: var(--skip); }
tr.fail td.reason { color: var(--fail); }
td.reason { max-width: 520px; word-break: break-word; }
tr.has-evidence td { border-bottom: none; }
tr.evidence td { padding-top: 0; }
ul.notes { margin: 4px 0 0; padding-left: 18px; color: #57606a; }
details { margin: 2px 0; }
details > summary { cursor: pointer; color: #0969da; }
details.exchange, details.callback { border: 1px solid var(--line); border-radius: 6px; padding: 4px 8px; margin: 6px 0; background: #fff; }
details.exchange > summary, details.callback > summary { color: var(--text); font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12px; }
pre { background: var(--soft); padding: 8px; border-radius: 6px; white-space: pre-wrap; word-break: break-all; font-size: 12px; margin: 4px 0; max-height: 480px; overflow: auto; }
.status-2 { color: var(--pass); } .status-3, .status-4, .status-5, .status-none { color: var(--fail); }
.muted { color: var(--skip); }
footer { margin-top: 40px; color: var(--skip); font-size: 12px; }
`;
