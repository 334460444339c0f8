import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

// What the package is for: a field renamed in a schema breaks the compile of the code that uses it.
// The Partner document with one response field renamed (CreateOrderResponse.orderNumber → number)
// goes through openapi-typescript as `npm run clients:generate` runs it; examples/partner-order.ts,
// compiled against those types instead of the committed ones, fails on the old name, and compiles
// against the committed ones.

const ROOT = join(__dirname, '..', '..', '..');
const GENERATED = join(ROOT, 'kits/clients/src/generated/partner.ts');
const EXAMPLE = join(ROOT, 'kits/clients/examples/partner-order.ts');

/** The types openapi-typescript makes of `document` (ESM-only, so in a child process). */
function generate(document: unknown): string {
  const script =
    "import openapiTS, { astToString } from 'openapi-typescript';" +
    "let text = ''; for await (const chunk of process.stdin) text += chunk;" +
    'process.stdout.write(astToString(await openapiTS(JSON.parse(text), { silent: true })));';
  return execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: ROOT,
    input: JSON.stringify(document),
    encoding: 'utf8',
    timeout: 60_000,
  });
}

/** The example's compile errors, with `partnerTypes` as kits/clients/src/generated/partner.ts. */
function compileExample(partnerTypes?: string): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(ROOT, 'tsconfig.tests.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: () => undefined,
    },
  )!;
  const host = ts.createCompilerHost(config.options);
  if (partnerTypes !== undefined) {
    const readFile = host.readFile.bind(host);
    host.readFile = (file) => (file === GENERATED ? partnerTypes : readFile(file));
  }
  const program = ts.createProgram([EXAMPLE], { ...config.options, noEmit: true }, host);
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

describe('a field renamed in a schema', () => {
  it('breaks the compile of the code reading it', () => {
    const document = JSON.parse(readFileSync(join(ROOT, 'docs/api/partner.openapi.json'), 'utf8'));
    const response = document.components.schemas.CreateOrderResponse;
    response.properties.number = response.properties.orderNumber;
    delete response.properties.orderNumber;
    response.required = response.required.map((name: string) => (name === 'orderNumber' ? 'number' : name));

    expect(compileExample()).toEqual([]);
    const errors = compileExample(generate(document));
    expect(errors).toEqual([expect.stringMatching(/'orderNumber'/)]);
  }, 120_000);
});
