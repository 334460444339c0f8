import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

// Each service's usecases/ holds use cases, one per file, and the context that hands them their
// ports. A file named after what it does (`create-order.ts` exports `createOrder`) is found by
// its name; a noun file holding nine use cases, or a loop or a cache among them, is not. Files may
// be grouped one folder deep by subject (`usecases/drivers/register-driver.ts`).
//
// The rules, over every services/*/src/usecases/**/*.ts but tests:
// - `context.ts` and `ports.ts` export types only (the ports and the context the use cases take);
// - every other file exports exactly one value, a function, whose name in kebab-case is the
//   file's name; it may export types beside it (its input and result).

const ROOT = join(__dirname, '..', '..');
const TYPES_ONLY = new Set(['context.ts', 'ports.ts']);

function useCaseFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts')) files.push(path);
    }
  };
  for (const service of readdirSync(join(ROOT, 'services'))) {
    const dir = join(ROOT, 'services', service, 'src', 'usecases');
    try {
      statSync(dir);
    } catch {
      continue;
    }
    walk(dir);
  }
  return files.sort();
}

interface Exported {
  name: string;
  kind: 'function' | 'value' | 'type';
}

const hasExport = (node: ts.Node) =>
  ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

/** What a module exports, by kind: a function, another value (const, class, enum, re-export) or a type. */
function exportsOf(path: string): Exported[] {
  const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.ES2022, true);
  const found: Exported[] = [];
  for (const node of source.statements) {
    if (ts.isExportDeclaration(node)) {
      const names = node.exportClause && ts.isNamedExports(node.exportClause) ? node.exportClause.elements : [];
      for (const element of names)
        found.push({ name: element.name.text, kind: node.isTypeOnly || element.isTypeOnly ? 'type' : 'value' });
      if (!node.exportClause) found.push({ name: '*', kind: node.isTypeOnly ? 'type' : 'value' });
      continue;
    }
    if (ts.isExportAssignment(node)) {
      found.push({ name: 'default', kind: 'value' });
      continue;
    }
    if (!hasExport(node)) continue;
    if (ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node))
      found.push({ name: node.name.text, kind: 'type' });
    else if (ts.isFunctionDeclaration(node)) found.push({ name: node.name?.text ?? 'default', kind: 'function' });
    else if (ts.isVariableStatement(node))
      for (const declaration of node.declarationList.declarations) {
        const init = declaration.initializer;
        const isFunction = !!init && (ts.isArrowFunction(init) || ts.isFunctionExpression(init));
        found.push({ name: declaration.name.getText(source), kind: isFunction ? 'function' : 'value' });
      }
    else if (ts.isClassDeclaration(node) || ts.isEnumDeclaration(node))
      found.push({ name: node.name?.text ?? 'default', kind: 'value' });
  }
  return found;
}

const kebab = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();

/** What is wrong with one file of usecases/, or nothing. */
function problemOf(path: string): string | undefined {
  const file = path.split('/').pop()!;
  const values = exportsOf(path).filter((e) => e.kind !== 'type');
  if (TYPES_ONLY.has(file))
    return values.length === 0
      ? undefined
      : `exports values (${values.map((v) => v.name).join(', ')}); ${file} holds types only`;
  if (values.length !== 1)
    return `exports ${values.length} values (${values.map((v) => v.name).join(', ') || 'none'}); a use case file exports one function`;
  const [only] = values;
  if (only!.kind !== 'function') return `exports ${only!.name}, which is not a function`;
  if (`${kebab(only!.name)}.ts` !== file)
    return `exports ${only!.name}: the file should be named ${kebab(only!.name)}.ts`;
  return undefined;
}

describe('use case files (services/*/src/usecases)', () => {
  const files = useCaseFiles();

  it('finds the use cases of every service', () => {
    const services = new Set(files.map((f) => relative(ROOT, f).split('/')[1]));
    expect(services.size).toBe(readdirSync(join(ROOT, 'services')).length);
  });

  it('holds one exported use case per file, named after it, beside the context and ports (types only)', () => {
    const problems = files
      .map((path) => ({ path: relative(ROOT, path), problem: problemOf(path) }))
      .filter((p) => p.problem !== undefined)
      .map((p) => `${p.path}: ${p.problem}`);
    expect(problems).toEqual([]);
  });

  it('goes at most one folder deep', () => {
    const deep = files
      .map((f) => relative(ROOT, f).split('/'))
      .filter((parts) => parts.length > 6) // services/<s>/src/usecases/<group>/<file>.ts
      .map((parts) => parts.join('/'));
    expect(deep).toEqual([]);
  });
});
