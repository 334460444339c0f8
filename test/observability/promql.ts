import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { repoRoot } from '@marketplace/testing';

/*
 * The PromQL of deploy/observability (the dashboard's panel and variable queries, the alert rules)
 * and the metric names it uses, checked against what the services export.
 */

const KEYWORDS = new Set([
  'and',
  'or',
  'unless',
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'offset',
  'bool',
  'inf',
  'nan',
]);

/** The metric names an expression selects: functions, aggregations, label matchers, grouping labels, ranges and numbers left out. */
export function metricNamesIn(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, '""') // label values, regexes
    .replace(/label_values\(\s*([a-zA-Z_:][\w:]*)\s*(?:,[^)]*)?\)/g, ' $1 ') // Grafana: the metric of label_values(metric, label)
    .replace(/\{[^}]*\}/g, ' ') // label matchers
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ') // grouping labels
    .replace(/\[[^\]]*\]/g, ' ') // ranges and subqueries
    .replace(/\$\{?\w+\}?/g, ' ') // Grafana variables
    .replace(/(?<![\w:])\d[\w.]*/g, ' '); // numbers and durations
  const names = new Set<string>();
  for (const match of bare.matchAll(/([a-zA-Z_:][\w:]*)(\s*\()?/g)) {
    const [, name, call] = match;
    if (call || KEYWORDS.has(name!.toLowerCase())) continue; // a function or an aggregation
    names.add(name!);
  }
  return [...names];
}

/** Metric name → type, from the `# TYPE` lines of Prometheus text (printed even before a labelled metric has values). */
export function exportedTypes(scrapes: string[]): Map<string, string> {
  const types = new Map<string, string>();
  for (const text of scrapes)
    for (const [, name, type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) types.set(name!, type!);
  return types;
}

/** Whether `name` is exported: itself, or the _bucket, _count or _sum series of a histogram (or summary). */
export function isExported(name: string, types: Map<string, string>): boolean {
  if (types.has(name)) return true;
  const base = /^(.+)_(bucket|count|sum)$/.exec(name);
  if (!base) return false;
  const type = types.get(base[1]!);
  return type === 'histogram' || (type === 'summary' && base[2] !== 'bucket');
}

/** The names used by `exprs` that no service exports, with the expression each comes from. */
export function unknownMetrics(exprs: string[], types: Map<string, string>): Array<{ name: string; expr: string }> {
  return exprs.flatMap((expr) =>
    metricNamesIn(expr)
      .filter((name) => !isExported(name, types))
      .map((name) => ({ name, expr })),
  );
}

const observability = join(repoRoot, 'deploy', 'observability');

export interface AlertRule {
  alert: string;
  expr: string;
  annotations?: Record<string, string>;
}

export function alertRules(): AlertRule[] {
  const file = parse(readFileSync(join(observability, 'alerts.yaml'), 'utf8')) as {
    groups: Array<{ rules: AlertRule[] }>;
  };
  return file.groups.flatMap((group) => group.rules);
}

/** Every PromQL expression of the dashboard: panel targets (rows included) and query variables. */
export function dashboardQueries(): string[] {
  const dashboard = JSON.parse(readFileSync(join(observability, 'dashboard.json'), 'utf8')) as {
    panels: Array<{ targets?: Array<{ expr?: string }>; panels?: unknown[] }>;
    templating: { list: Array<{ type: string; query?: string | { query: string } }> };
  };
  const panels = dashboard.panels.flatMap((p) => [p, ...((p.panels ?? []) as typeof dashboard.panels)]);
  const targets = panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr ?? ''));
  const variables = dashboard.templating.list
    .filter((v) => v.type === 'query')
    .map((v) => (typeof v.query === 'string' ? v.query : (v.query?.query ?? '')));
  return [...targets, ...variables].filter((expr) => expr.trim() !== '');
}

/** GitHub's anchor of a Markdown heading: lower case, punctuation dropped, spaces to hyphens. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  for (const [, text] of markdown.matchAll(/^#{1,6} (.+)$/gm))
    anchors.add(
      text!
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, '')
        .replace(/\s/g, '-'),
    );
  return anchors;
}
