import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { repoRoot } from './stack';

/**
 * The error codes a set of source trees can answer with, read from the source itself, so that an
 * API document's list of codes can be checked against what the services really send (the
 * documents' error-code tests).
 *
 * A code is found where an AppError is made: `new AppError(kind, 'code', …)`,
 * `new HttpLayerError(status, 'code', …)`, and every helper that passes its `code` parameter on to
 * one of these (found the same way: `validationError`, `conflict`, `notFound` with its default
 * code, a service's own `ineligible`, …). The code argument is a string literal, a constant
 * (`const VALIDATION = 'request.invalid'`, in any scanned file), a default (`options.code ?? '…'`),
 * a rule table's `code: '…'` (for `rule.code`) or a `[status, 'code', …]` table (for a status and a
 * code destructured from it). A site whose code none of these gives is reported in `unresolved`:
 * a test fails on it rather than miss a code. Comments are ignored; tests, fixtures and the
 * OpenAPI documents themselves (any `openapi/` folder) are not scanned.
 */
export interface ErrorCodeSite {
  code: string;
  /** The AppError kind, when the site names it with a literal (the status follows from it). */
  kind?: string;
  /** The HTTP status, when the site names it (HttpLayerError, a `[status, 'code']` table). */
  status?: number;
  /** Whether the error carries `retryAfterSeconds` (the answer has a Retry-After header). */
  retryAfter: boolean;
  /** `path:line`, the path relative to the repository. */
  at: string;
}

export interface ErrorCodeScan {
  sites: ErrorCodeSite[];
  /** `path:line: call` of every error made with a code the scan could not read. */
  unresolved: string[];
  /** The files read, relative to the repository. */
  files: string[];
}

const CODE = /^[a-z][a-z0-9_]*(?:\.[a-z0-9_]+)*$/;
const STRING = /^'([^'\\]*)'$/;

/** The TypeScript files of the trees, without tests, fixtures, generated output or OpenAPI documents. */
function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (!['node_modules', 'dist', 'openapi', 'generated'].includes(name)) sourceFiles(path, out);
    } else if (name.endsWith('.ts') && !/\.(test|fixture|d)\.ts$/.test(name)) out.push(path);
  }
  return out;
}

/** The text with comments blanked (same length, newlines kept), strings and templates untouched. */
function withoutComments(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    const next = text[i + 1];
    if (c === '/' && next === '/') {
      const end = text.indexOf('\n', i);
      const stop = end === -1 ? text.length : end;
      out += ' '.repeat(stop - i);
      i = stop;
    } else if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end === -1 ? text.length : end + 2;
      out += text.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop;
    } else if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** The text with the contents of strings and templates blanked too: where code (a call) may be. */
function codeOnly(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += text[j] === '\\' ? 2 : 1;
      out += c + text.slice(i + 1, j).replace(/[^\n]/g, ' ') + (j < text.length ? c : '');
      i = j + 1;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** The arguments of the call whose `(` is at `open`, split at top-level commas, each trimmed. */
function callArguments(text: string, open: number): { args: string[]; end: number } {
  const args: string[] = [];
  let depth = 0;
  let start = open + 1;
  for (let i = open; i < text.length; i++) {
    const c = text[i]!;
    if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += text[j] === '\\' ? 2 : 1;
      i = j;
    } else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      depth--;
      if (depth === 0) {
        const last = text.slice(start, i).trim();
        if (last !== '') args.push(last);
        return { args, end: i };
      }
    } else if (c === ',' && depth === 1) {
      args.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  return { args, end: text.length };
}

const literal = (arg: string | undefined): string | undefined => (arg ? STRING.exec(arg)?.[1] : undefined);

interface Wrapper {
  /** The AppError kind it makes (undefined: not a literal). */
  kind?: string;
  codeIndex: number;
  defaultCode?: string;
  /** The wrapper's definition, [start, end) in its file: the AppError made there is not a site. */
  file: string;
  range: [number, number];
}

interface SourceFile {
  path: string;
  /** Without comments. */
  text: string;
  /** Without comments and string contents. */
  code: string;
}

/**
 * Functions whose `code` parameter (any name) becomes an AppError's code, directly or through
 * another such function: `const name = (code…) => new AppError('kind', code…)`, or a function
 * whose body makes one.
 */
function findWrappers(files: SourceFile[]): Map<string, Wrapper> {
  const wrappers = new Map<string, Wrapper>();
  const definition =
    /(?:(?:const|let)\s+(\w+)\s*=\s*\(([^)]*)\)\s*(?::[^=]*?)?=>|function\s+(\w+)\s*\(([^)]*)\)\s*(?::[^{]*)?\{)/g;
  for (let changed = true; changed;) {
    changed = false;
    for (const file of files) {
      for (const match of file.code.matchAll(definition)) {
        const name = (match[1] ?? match[3])!;
        if (wrappers.has(name)) continue;
        // The parameters as written (defaults included), from the text with its strings.
        const written = file.text.slice(match.index, match.index + match[0].length);
        const params = (/\(([^)]*)\)/.exec(written)?.[1] ?? '')
          .split(',')
          .map((p) => p.trim())
          .filter(Boolean);
        const paramNames = params.map((p) => /^(\w+)/.exec(p)?.[1] ?? '');
        const bodyStart = match.index + match[0].length;
        // The body: the expression or block right after the arrow / brace, up to 600 characters.
        const body = file.text.slice(bodyStart, bodyStart + 600);
        const call = /^\s*(?:\{\s*)?(?:return\s+|throw\s+)?(new AppError|[A-Za-z_]\w*)\s*\(/.exec(body);
        if (!call) continue;
        const open = bodyStart + call[0].length - 1;
        const { args, end } = callArguments(file.text, open);
        let kind: string | undefined;
        let codeArg: string | undefined;
        if (call[1] === 'new AppError') {
          kind = literal(args[0]);
          codeArg = args[1];
        } else {
          const inner = wrappers.get(call[1]!);
          if (!inner) continue;
          kind = inner.kind;
          codeArg = args[inner.codeIndex];
        }
        const codeIndex = paramNames.indexOf(codeArg ?? '');
        if (codeIndex === -1) continue;
        const defaultCode = /=\s*'([^']*)'/.exec(params[codeIndex]!)?.[1];
        wrappers.set(name, { kind, codeIndex, defaultCode, file: file.path, range: [match.index, end + 1] });
        changed = true;
      }
    }
  }
  return wrappers;
}

/** `const NAME = 'code'` in any scanned file. */
function findConstants(files: SourceFile[]): Map<string, string> {
  const constants = new Map<string, string>();
  for (const file of files)
    for (const match of file.text.matchAll(/\bconst\s+(\w+)\s*(?::\s*string\s*)?=\s*'([^']*)'\s*;/g))
      if (CODE.test(match[2]!)) constants.set(match[1]!, match[2]!);
  return constants;
}

/** What the scan of every file shares: the files, the wrappers and constants found across them. */
interface Scan {
  files: SourceFile[];
  wrappers: Map<string, Wrapper>;
  constants: Map<string, string>;
  /** A call that makes an AppError: `new AppError(`, `new HttpLayerError(` or a wrapper's name. */
  callPattern: RegExp;
}

/** A code the scan resolved a call's code argument to, with what it adds to the site (a status). */
interface ResolvedCode {
  code: string;
  extra?: Partial<ErrorCodeSite>;
}

/** The scanned files, each without comments (paths relative to the repository). */
function readSources(dirs: string[]): SourceFile[] {
  const paths = dirs.flatMap((dir) => sourceFiles(join(repoRoot, dir)));
  return paths.map((path) => {
    const text = withoutComments(readFileSync(path, 'utf8'));
    return { path: relative(repoRoot, path), text, code: codeOnly(text) };
  });
}

/**
 * For `x.code`: the codes (`code: '…'`) of what `x` comes from, `const x = NAME…` with NAME a
 * table or a function declared at the top level of this file or of another scanned one (its
 * declaration up to the next top-level one).
 */
function tableCodesOf(files: SourceFile[], file: SourceFile, variable: string): string[] {
  const source = new RegExp(`\\b(?:const|let)\\s+${variable}\\s*=\\s*(?:await\\s+)?(\\w+)`).exec(file.code)?.[1];
  if (!source) return [];
  const declaration = new RegExp(`^(?:export\\s+)?(?:const|let|function)\\s+${source}\\b`, 'm');
  for (const candidate of [file, ...files.filter((f) => f !== file)]) {
    const found = declaration.exec(candidate.code);
    if (!found) continue;
    const rest = candidate.text.slice(found.index + found[0].length);
    const next = /^(?:export\s+)?(?:const|let|function|async|type|interface|class)\b/m.exec(rest);
    const body = next ? rest.slice(0, next.index) : rest;
    return [...body.matchAll(/\bcode:\s*'([^']*)'/g)].map((m) => m[1]!).filter((c) => CODE.test(c));
  }
  return [];
}

/** What a call says by itself: the error's kind or status, and its code argument as written. */
function calleeParts(
  callee: string,
  args: string[],
  wrappers: Map<string, Wrapper>,
): { kind?: string; status?: number; codeArg?: string } {
  if (callee === 'new AppError') return { kind: literal(args[0]), codeArg: args[1] };
  if (callee === 'new HttpLayerError')
    return { status: /^\d{3}$/.test(args[0] ?? '') ? Number(args[0]) : undefined, codeArg: args[1] };
  const wrapper = wrappers.get(callee)!;
  let codeArg = args[wrapper.codeIndex];
  if (codeArg === undefined && wrapper.defaultCode) codeArg = `'${wrapper.defaultCode}'`;
  return { kind: wrapper.kind, codeArg };
}

/**
 * The codes a code argument that is a name resolves to, by the shapes the services write;
 * undefined when none fits (the site is then reported unresolved).
 */
function codesOfName(
  name: string,
  callee: string,
  file: SourceFile,
  tuples: RegExpExecArray[],
  scan: Scan,
): ResolvedCode[] | undefined {
  if (scan.constants.has(name)) return [{ code: scan.constants.get(name)! }];
  // `const code = options.code ?? 'request.invalid'`
  const fallback = new RegExp(`\\b${name}\\s*=\\s*[^;\\n]*\\?\\?\\s*'([^']*)'`).exec(file.text)?.[1];
  if (/^\w+$/.test(name) && fallback && CODE.test(fallback)) return [{ code: fallback }];
  // `rule.code` of a table of rules, each with `code: '…'`.
  const member = /^(\w+)\.code$/.exec(name);
  const tableCodes = member ? tableCodesOf(scan.files, file, member[1]!) : [];
  if (tableCodes.length > 0) return tableCodes.map((code) => ({ code }));
  // `const [status, code, message] = TABLE[…] ?? [400, 'request.malformed', …]`
  if (/^\w+$/.test(name) && callee === 'new HttpLayerError' && tuples.length > 0)
    return tuples.map((tuple) => ({ code: tuple[2]!, extra: { status: Number(tuple[1]) } }));
  return undefined;
}

/** The sites of one file, added to `sites`; the calls whose code it cannot tell, to `unresolved`. */
function scanFile(file: SourceFile, scan: Scan, sites: ErrorCodeSite[], unresolved: string[]): void {
  const lineOf = (index: number) => file.text.slice(0, index).split('\n').length;
  const tuples = [...file.text.matchAll(/\[\s*(\d{3})\s*,\s*'([^']*)'/g)].filter((m) => CODE.test(m[2]!));
  for (const match of file.code.matchAll(scan.callPattern)) {
    const callee = match[1]!.replace(/\s+/g, ' ');
    const open = match.index + match[0].length - 1;
    const { args, end } = callArguments(file.text, open);
    const at = `${file.path}:${lineOf(match.index)}`;
    const retryAfter = /\bretryAfterSeconds\b/.test(file.text.slice(open, end));
    // The AppError a wrapper's own definition makes is not a site (its callers are).
    const inWrapper = [...scan.wrappers.values()].some(
      (w) => w.file === file.path && match.index >= w.range[0] && match.index < w.range[1],
    );
    const { kind, status, codeArg } = calleeParts(callee, args, scan.wrappers);
    const add = (code: string, extra: Partial<ErrorCodeSite> = {}) =>
      sites.push({ code, ...(kind ? { kind } : {}), ...(status ? { status } : {}), retryAfter, at, ...extra });

    const code = literal(codeArg);
    if (code !== undefined && CODE.test(code)) {
      add(code);
      continue;
    }
    if (inWrapper) continue;
    const resolved = codesOfName(codeArg ?? '', callee, file, tuples, scan);
    if (resolved) for (const { code: resolvedCode, extra } of resolved) add(resolvedCode, extra);
    else unresolved.push(`${at}: ${callee}(${args.join(', ')})`);
  }
}

export function scanErrorCodes(dirs: string[]): ErrorCodeScan {
  const files = readSources(dirs);
  const wrappers = findWrappers(files);
  const constants = findConstants(files);
  const callers = ['new AppError', 'new HttpLayerError', ...wrappers.keys()];
  const callPattern = new RegExp(`(?<![\\w.])(${callers.map((c) => c.replace(/ /g, '\\s+')).join('|')})\\s*\\(`, 'g');
  const scan: Scan = { files, wrappers, constants, callPattern };
  const sites: ErrorCodeSite[] = [];
  const unresolved: string[] = [];
  for (const file of files) scanFile(file, scan, sites, unresolved);
  return { sites, unresolved, files: files.map((f) => f.path) };
}

/** A source file of the repository (path relative to it) without its comments, for tests that read code. */
export function sourceWithoutComments(path: string): string {
  return withoutComments(readFileSync(join(repoRoot, path), 'utf8'));
}

/** Every code of the sites with the statuses they name (a site naming none adds none), sorted. */
export function statusesByCode(
  sites: readonly ErrorCodeSite[],
  statusOfKind: (kind: string) => number,
): Map<string, number[]> {
  const codes = new Map<string, Set<number>>();
  for (const site of sites) {
    const statuses = codes.get(site.code) ?? new Set<number>();
    const status = site.status ?? (site.kind ? statusOfKind(site.kind) : undefined);
    if (status !== undefined) statuses.add(status);
    codes.set(site.code, statuses);
  }
  return new Map([...codes].map(([code, statuses]) => [code, [...statuses].sort((a, b) => a - b)]));
}

/**
 * The error table of an API document's markdown description, from the heading `section` on: rows
 * whose first cell is a status (or several, `400, 422`) and whose second a code in backticks.
 */
export function errorTableOf(description: string, section = '## Errors'): Map<string, number[]> {
  const start = description.indexOf(section);
  const table = new Map<string, number[]>();
  if (start === -1) return table;
  for (const row of description.slice(start).matchAll(/^\| *(\d{3}(?:, *\d{3})*) *\| *`([^`]+)` *\|/gm)) {
    const statuses = row[1]!.split(',').map((s) => Number(s.trim()));
    table.set(
      row[2]!,
      [...(table.get(row[2]!) ?? []), ...statuses].sort((a, b) => a - b),
    );
  }
  return table;
}

type Json = Record<string, unknown>;

/** An operation of an OpenAPI document, its responses with their `$ref`s followed. */
export interface DocumentedOperation {
  id: string;
  method: string;
  path: string;
  operation: Json;
  responses: Record<string, Json>;
}

/** Follows local `$ref`s (`#/components/…`) of the document until an object that is none. */
export function followRef(doc: Json, value: unknown): Json {
  let node = value as Json;
  while (typeof node.$ref === 'string') {
    node = node.$ref
      .slice(2)
      .split('/')
      .reduce<Json>((at, key) => at[key.replace(/~1/g, '/').replace(/~0/g, '~')] as Json, doc);
  }
  return node;
}

export function documentOperations(doc: Json): DocumentedOperation[] {
  const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
  return Object.entries(doc.paths as Json).flatMap(([path, item]) =>
    Object.entries(item as Json)
      .filter(([method]) => methods.includes(method))
      .map(([method, value]) => {
        const operation = value as Json;
        return {
          id: String(operation.operationId),
          method: method.toUpperCase(),
          path,
          operation,
          responses: Object.fromEntries(
            Object.entries(operation.responses as Json).map(([status, response]) => [status, followRef(doc, response)]),
          ),
        };
      }),
  );
}

/** The codes an error response lists in `x-error-codes`. */
export const responseErrorCodes = (response: Json): string[] =>
  (response['x-error-codes'] as string[] | undefined) ?? [];

/**
 * What is wrong with the codes each error response (4xx, 5xx) lists: none listed, a code the
 * document's table does not give that status, a code its description does not name.
 */
export function responseCodeProblems(operations: DocumentedOperation[], table: Map<string, number[]>): string[] {
  const problems: string[] = [];
  for (const op of operations)
    for (const [status, response] of Object.entries(op.responses)) {
      if (!/^[45]/.test(status)) continue;
      const codes = responseErrorCodes(response);
      if (codes.length === 0) problems.push(`${op.id} ${status}: no x-error-codes`);
      for (const code of codes) {
        if (!table.get(code)?.includes(Number(status))) problems.push(`${op.id} ${status}: ${code} not documented so`);
        if (!String(response.description).includes(`\`${code}\``))
          problems.push(`${op.id} ${status}: ${code} not in the description`);
      }
    }
  return problems;
}

/** code → the statuses (as written: '400') under which the operation lists it. */
export function operationErrorCodes(op: DocumentedOperation): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [status, response] of Object.entries(op.responses))
    for (const code of responseErrorCodes(response)) out.set(code, [...(out.get(code) ?? []), status]);
  return out;
}

/** Headers a source file sets with `.set('Name', …)`, before the first match of `until` when given. */
export function headersSetIn(path: string, until?: RegExp): string[] {
  const text = sourceWithoutComments(path);
  const end = until ? text.search(until) : text.length;
  return [
    ...new Set(
      [...text.slice(0, end === -1 ? text.length : end).matchAll(/\.set\(\s*'([A-Za-z-]+)'/g)].map((m) => m[1]!),
    ),
  ];
}

/** The header the shared HTTP layer writes from an error's `retryAfterSeconds` (error-format.ts). */
export function retryAfterHeaderName(): string | undefined {
  return /headers\['([A-Za-z-]+)'\]\s*=\s*String\([^)]*retryAfterSeconds/.exec(
    sourceWithoutComments('shared/http/src/error-format.ts'),
  )?.[1];
}

/**
 * Where a document fails to show `header` (Retry-After): every status some sent error carries it
 * with (`statuses`) must be a response of every operation, with the header, required when every
 * error sent with that status carries it.
 */
export function retryAfterProblems(
  doc: Json,
  operations: DocumentedOperation[],
  sentSites: readonly ErrorCodeSite[],
  statusOfSite: (site: ErrorCodeSite) => number | undefined,
  header: string,
): { statuses: number[]; problems: string[] } {
  const statuses = [...new Set(sentSites.filter((s) => s.retryAfter).map((s) => statusOfSite(s)!))].sort();
  const problems: string[] = [];
  for (const status of statuses) {
    const always = sentSites.filter((s) => statusOfSite(s) === status).every((s) => s.retryAfter);
    for (const op of operations) {
      const response = op.responses[String(status)];
      if (!response) {
        problems.push(`${op.id}: no ${status}`);
        continue;
      }
      const documented = (response.headers as Json | undefined)?.[header];
      if (!documented) problems.push(`${op.id} ${status}: no ${header}`);
      else if (always && followRef(doc, documented).required !== true)
        problems.push(`${op.id} ${status}: ${header} not required`);
    }
  }
  return { statuses, problems };
}

/** The codes of the document's table that no operation lists and that are not known to come from outside every operation. */
export function codesOnNoOperation(
  operations: DocumentedOperation[],
  table: Map<string, number[]>,
  outsideOperations: Record<string, string>,
): string[] {
  const onOperations = new Set(operations.flatMap((op) => [...operationErrorCodes(op).keys()]));
  return [...table.keys()].filter((code) => !onOperations.has(code) && !(code in outsideOperations));
}
