import { bodyValidator } from '@marketplace/http';
import { validateOpenApi } from '@marketplace/testing';
import { httpSchemas, requestSchemas } from './index';

// A request schema that ajv refuses in strict mode stops its service at start: find it here first.
describe('contract schemas', () => {
  it.each(Object.keys(requestSchemas))('%s compiles with the validator the services use', (name) => {
    expect(() => bodyValidator(requestSchemas[name as keyof typeof requestSchemas])).not.toThrow();
  });

  it('refers only to schemas that exist, and request schemas to none', () => {
    const refs = (value: unknown): string[] =>
      Array.isArray(value)
        ? value.flatMap(refs)
        : value && typeof value === 'object'
          ? Object.entries(value).flatMap(([k, v]) => (k === '$ref' && typeof v === 'string' ? [v] : refs(v)))
          : [];
    for (const schema of Object.values(requestSchemas)) expect(refs(schema)).toEqual([]);
    const missing = Object.values(httpSchemas)
      .flatMap(refs)
      .map((ref) => ref.replace('#/components/schemas/', ''))
      .filter((name) => !(name in httpSchemas));
    expect(missing).toEqual([]);
  });

  it('are valid OpenAPI 3.1 schema objects', () => {
    const document = {
      openapi: '3.1.0',
      info: { title: 'contracts', version: '1' },
      paths: {},
      components: { schemas: httpSchemas },
    };
    expect(validateOpenApi(document)).toMatchObject({ valid: true });
  });
});
