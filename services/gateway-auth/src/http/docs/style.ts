/**
 * The stylesheet of the pages written here (the index and the problem types), served as
 * `/docs/assets/docs.css` with a content digest like every asset: their Content-Security-Policy
 * allows no inline style. One column on a phone, a wider grid from a tablet on; the system fonts;
 * light and dark after the reader's setting.
 */
export const DOCS_CSS = `:root {
  color-scheme: light dark;
  --ink: #1d2330;
  --muted: #5a6275;
  --paper: #ffffff;
  --panel: #f5f7fb;
  --line: #dde2ec;
  --accent: #2f5bd3;
  --accent-ink: #ffffff;
  --code: #eef1f7;
}
@media (prefers-color-scheme: dark) {
  :root {
    --ink: #e7eaf2;
    --muted: #a3abbd;
    --paper: #12151c;
    --panel: #1a1f29;
    --line: #2c3342;
    --accent: #8fb0ff;
    --accent-ink: #12151c;
    --code: #232a37;
  }
}
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body {
  margin: 0;
  background: var(--paper);
  color: var(--ink);
  font: 16px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
}
a { color: var(--accent); text-underline-offset: 2px; }
a:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
code {
  font: 0.9em/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  background: var(--code);
  border-radius: 4px;
  padding: 0.1em 0.3em;
  overflow-wrap: anywhere;
}
.page { max-width: 70rem; margin: 0 auto; padding: 1.25rem 1rem 3rem; }
.masthead { border-bottom: 1px solid var(--line); padding-bottom: 1rem; margin-bottom: 1.5rem; }
.masthead h1 { font-size: 1.75rem; line-height: 1.2; margin: 0.25rem 0 0.5rem; }
.lead { color: var(--muted); font-size: 1.05rem; margin: 0; max-width: 48rem; }
.crumbs { margin: 0; font-size: 0.9rem; color: var(--muted); }
h2 { font-size: 1.3rem; margin: 2rem 0 0.75rem; }
h3 { font-size: 1.1rem; margin: 0 0 0.5rem; }
nav.toc { margin-bottom: 1.5rem; }
nav.toc ul { list-style: none; padding: 0; margin: 0; display: flex; flex-wrap: wrap; gap: 0.5rem; }
nav.toc a {
  display: inline-block;
  padding: 0.35rem 0.75rem;
  border: 1px solid var(--line);
  border-radius: 999px;
  text-decoration: none;
  font-size: 0.9rem;
}
.start { background: var(--panel); border: 1px solid var(--line); border-radius: 10px; padding: 1rem 1.25rem; }
.start h2 { margin-top: 0; }
.start dl { margin: 0; }
.start dt { font-weight: 600; margin-top: 0.75rem; }
.start dd { margin: 0.15rem 0 0; }
.audience > p { color: var(--muted); margin-top: -0.25rem; }
.cards { display: grid; gap: 1rem; grid-template-columns: 1fr; }
@media (min-width: 48rem) {
  .cards { grid-template-columns: repeat(2, minmax(0, 1fr)); }
  .page { padding: 2rem 2rem 4rem; }
  .masthead h1 { font-size: 2.1rem; }
}
.card {
  border: 1px solid var(--line);
  border-radius: 10px;
  padding: 1rem 1.1rem;
  display: flex;
  flex-direction: column;
  gap: 0.5rem;
}
.card p { margin: 0; }
.card ul.links { list-style: none; padding: 0; margin: auto 0 0; display: grid; gap: 0.3rem; font-size: 0.92rem; }
.card ul.links .label { color: var(--muted); display: inline-block; min-width: 7.5rem; }
a.button {
  display: inline-block;
  background: var(--accent);
  color: var(--accent-ink);
  padding: 0.3rem 0.8rem;
  border-radius: 6px;
  text-decoration: none;
  font-weight: 600;
}
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 0.4rem 1rem; margin: 0 0 1.5rem; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; }
table { border-collapse: collapse; width: 100%; font-size: 0.95rem; }
th, td { text-align: left; vertical-align: top; padding: 0.45rem 0.5rem; border-bottom: 1px solid var(--line); }
th { color: var(--muted); font-weight: 600; }
.table-wrap { overflow-x: auto; }
footer { margin-top: 3rem; color: var(--muted); font-size: 0.9rem; }
`;
