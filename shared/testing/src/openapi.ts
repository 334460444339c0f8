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
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    input: JSON.stringify(doc),
    encoding: 'utf8',
    timeout: 60_000,
  });
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

/**
 * The checks every tenant API document passes: valid OpenAPI 3.1 and plain JSON, and every
 * operation with a unique id, the tenant token and a 401. Returns the operation ids.
 */
export function tenantDocumentOperationIds(doc: Record<string, unknown>): string[] {
  const result = validateOpenApi(doc);
  if (!result.valid) throw new Error(`not valid OpenAPI 3.1: ${JSON.stringify(result.errors)}`);
  if (JSON.stringify(JSON.parse(JSON.stringify(doc))) !== JSON.stringify(doc))
    throw new Error('the document is not plain JSON');
  const ids: string[] = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
    for (const [method, op] of Object.entries(item)) {
      if (method === 'parameters') continue;
      const where = `${method.toUpperCase()} ${path}`;
      if (ids.includes(op.operationId)) throw new Error(`${where}: operationId ${op.operationId} is used twice`);
      if (JSON.stringify(op.security) !== JSON.stringify([{ tenantToken: [] }]))
        throw new Error(`${where}: not secured by the tenant token`);
      if (!op.responses?.['401']) throw new Error(`${where}: no 401 answer`);
      ids.push(op.operationId);
    }
  }
  return ids;
}
