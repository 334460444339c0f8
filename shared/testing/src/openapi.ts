import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/**
 * Validates an OpenAPI document with @seriousme/openapi-schema-validator. It is ESM-only, which
 * jest (CommonJS via ts-jest) cannot import, so a child Node process runs it on the document sent
 * through stdin.
 */
export function validateOpenApi(doc: unknown): { valid: boolean; version: string; errors: unknown } {
  const moduleUrl = pathToFileURL(require.resolve('@seriousme/openapi-schema-validator')).href;
  const script = `
    import { Validator } from ${JSON.stringify(moduleUrl)};
    const chunks = [];
    for await (const chunk of process.stdin) chunks.push(chunk);
    const validator = new Validator();
    const result = await validator.validate(JSON.parse(Buffer.concat(chunks).toString('utf8')));
    process.stdout.write(JSON.stringify({ valid: result.valid, version: validator.version, errors: result.errors ?? null }));
  `;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { input: JSON.stringify(doc), encoding: 'utf8', timeout: 60_000 });
  if (child.status !== 0) throw new Error(`validator process failed (${child.status}): ${child.stderr}`);
  return JSON.parse(child.stdout);
}

/** A validator for one of the document's component schemas (JSON Schema 2020-12, as OpenAPI 3.1 uses). */
export function componentValidator(doc: Record<string, unknown>, name: string): (value: unknown) => boolean {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const schemas = (doc.components as { schemas: unknown }).schemas;
  const $defs = JSON.parse(JSON.stringify(schemas).replace(/#\/components\/schemas\//g, '#/$defs/'));
  ajv.addSchema({ $id: 'https://openapi.test/document.json', $defs });
  const validate = ajv.getSchema(`https://openapi.test/document.json#/$defs/${name}`);
  if (!validate) throw new Error(`the document has no component schema ${name}`);
  return (value) => validate(value) as boolean;
}
