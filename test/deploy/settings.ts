/**
 * The settings each service reads, found in its source: the platform's
 * (shared/runtime/src/platform-config.ts) and its own (services/<name>/src/config.ts). Root tests
 * may not import a service's code, so the files are parsed with the TypeScript compiler: every
 * call of a @marketplace/config builder (`str('VAR', { default: ... })`, `base64Key('VAR')`, ...)
 * is a setting, required when it has no default. Whatever upper-case name the parser cannot place
 * fails the test that reads it, so a new way of declaring a setting cannot slip past unseen.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

export interface SettingInfo {
  variable: string;
  required: boolean;
  /** The @marketplace/config builder (`base64Key` for keys), when declared with one. */
  builder?: string;
  /** The default's source text, when it has one (`'http://127.0.0.1:4102'`, `15_000`). */
  defaultText?: string;
}

const BUILDERS = new Set([
  'str',
  'int',
  'bool',
  'url',
  'oneOf',
  'port',
  'hostPortList',
  'base64Key',
  'optionalStr',
  'optionalFileContents',
]);
/** Builders whose setting is undefined when unset. */
const OPTIONAL_BUILDERS = new Set(['optionalStr', 'optionalFileContents']);
const VARIABLE = /^[A-Z][A-Z0-9_]{2,}$/;

function fromBuilderCall(call: ts.CallExpression): SettingInfo | undefined {
  const [first, ...rest] = call.arguments;
  if (!ts.isIdentifier(call.expression) || !BUILDERS.has(call.expression.text)) return undefined;
  if (!first || !ts.isStringLiteral(first)) return undefined;
  const builder = call.expression.text;
  const options = rest.find(ts.isObjectLiteralExpression);
  const fallback = options?.properties.find(
    (p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && p.name.getText() === 'default',
  );
  // base64Key has no default option; optionalStr is undefined when unset, and so is any builder
  // wrapped in `optional(...)` (REDIS_URL and REDIS_SENTINELS: one of the two)
  const wrapped =
    ts.isCallExpression(call.parent) &&
    ts.isIdentifier(call.parent.expression) &&
    call.parent.expression.text === 'optional';
  const required = !OPTIONAL_BUILDERS.has(builder) && !wrapped && (builder === 'base64Key' || !fallback);
  return { variable: first.text, required, builder, defaultText: fallback?.initializer.getText() };
}

/** `export const nameSetting = () => str('VAR', ...)` in the shared packages, by name. */
function sharedSettingHelpers(root: string): Map<string, SettingInfo> {
  const helpers = new Map<string, SettingInfo>();
  for (const pkg of readdirSync(join(root, 'shared'))) {
    const dir = join(root, 'shared', pkg, 'src');
    let files: string[] = [];
    try {
      files = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
    } catch {
      continue;
    }
    for (const file of files) {
      const source = ts.createSourceFile(file, readFileSync(join(dir, file), 'utf8'), ts.ScriptTarget.ES2022, true);
      source.forEachChild(function visit(node) {
        if (ts.isVariableDeclaration(node) && node.initializer && ts.isArrowFunction(node.initializer)) {
          const body = node.initializer.body;
          const setting = ts.isCallExpression(body) ? fromBuilderCall(body) : undefined;
          if (setting) helpers.set(node.name.getText(), setting);
        }
        node.forEachChild(visit);
      });
    }
  }
  return helpers;
}

/** The settings declared in one source file, and the upper-case names in it it could not place. */
export function settingsIn(root: string, path: string): { settings: SettingInfo[]; unplaced: string[] } {
  const helpers = sharedSettingHelpers(root);
  const source = ts.createSourceFile(path, readFileSync(join(root, path), 'utf8'), ts.ScriptTarget.ES2022, true);
  const settings: SettingInfo[] = [];
  const placed = new Set<string>();
  const mentioned = new Set<string>();
  source.forEachChild(function visit(node) {
    // (a list of choices, such as Kafka's security protocols, holds values, not variables)
    // (nor is a setting's default, such as Kafka's `PLAINTEXT`)
    const isDefault =
      ts.isPropertyAssignment(node.parent) &&
      node.parent.name.getText() === 'default' &&
      node.parent.initializer === node;
    if (ts.isStringLiteral(node) && VARIABLE.test(node.text) && !ts.isArrayLiteralExpression(node.parent) && !isDefault)
      mentioned.add(node.text);
    if (ts.isCallExpression(node)) {
      const helper = ts.isIdentifier(node.expression) ? helpers.get(node.expression.text) : undefined;
      const setting = fromBuilderCall(node) ?? helper;
      if (setting) settings.push(setting);
      if (setting) placed.add(setting.variable);
    }
    // process.env.NAME read directly: an optional setting (MONGO_DATABASE_PREFIX)
    if (ts.isPropertyAccessExpression(node) && node.expression.getText() === 'process.env') {
      settings.push({ variable: node.name.text, required: false });
      placed.add(node.name.text);
    }
    node.forEachChild(visit);
  });
  return { settings, unplaced: [...mentioned].filter((name) => !placed.has(name)) };
}
