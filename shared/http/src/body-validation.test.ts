import { AppError } from '@marketplace/errors';
import { bodyValidator, fieldPath, MAX_FIELD_ERRORS, projectOntoSchema } from './body-validation';

const order = bodyValidator<{
  branchId: string;
  lines: { quantity: number; modifierSelections: { modifierOptionId: string }[] }[];
}>({
  type: 'object',
  additionalProperties: false,
  required: ['branchId', 'lines'],
  properties: {
    branchId: { type: 'string', format: 'uuid' },
    lines: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['quantity', 'modifierSelections'],
        properties: {
          quantity: { type: 'integer', minimum: 1 },
          modifierSelections: {
            type: 'array',
            items: {
              type: 'object',
              required: ['modifierOptionId'],
              properties: { modifierOptionId: { type: 'string', format: 'uuid' } },
            },
          },
        },
      },
    },
  },
});

function errorsOf(body: unknown) {
  try {
    order(body);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return (error as AppError).fieldErrors;
  }
  throw new Error('expected a validation error');
}

describe('bodyValidator', () => {
  it('returns a valid body as it is', () => {
    const body = { branchId: '3b241101-e2bb-4255-8caf-4136c566a962', lines: [{ quantity: 2, modifierSelections: [] }] };
    expect(order(body)).toBe(body);
  });

  it('names each offending field with the path a client writes', () => {
    expect(
      errorsOf({
        branchId: 'x',
        coupon: 'FREE',
        lines: [
          { quantity: 1, modifierSelections: [] },
          { quantity: 1, modifierSelections: [] },
          { quantity: 0, modifierSelections: [{ modifierOptionId: 'nope' }, {}] },
        ],
      }),
    ).toEqual({
      branchId: ['must match format "uuid"'],
      coupon: ['is not allowed'],
      'lines[2].quantity': ['must be >= 1'],
      'lines[2].modifierSelections[0].modifierOptionId': ['must match format "uuid"'],
      'lines[2].modifierSelections[1].modifierOptionId': ['is required'],
    });
  });

  it('names the field at fault inside a nullable shape, and its type when it is neither', () => {
    const address = {
      type: 'object',
      additionalProperties: false,
      required: ['city'],
      properties: { city: { type: 'string' } },
      title: 'Address',
    };
    const validate = bodyValidator<{ address: unknown }>({
      type: 'object',
      properties: { address: { anyOf: [address, { type: 'null' }] } },
    });
    const fieldErrors = (body: unknown) => {
      try {
        validate(body);
      } catch (error) {
        return (error as AppError).fieldErrors;
      }
      return undefined;
    };
    expect(fieldErrors({ address: null })).toBeUndefined();
    expect(fieldErrors({ address: {} })).toEqual({ 'address.city': ['is required'] });
    expect(fieldErrors({ address: 5 })).toEqual({ address: ['must be object'] });
  });

  it('reports a conditional rule by the field it requires, and a short enum by its values', () => {
    const validate = bodyValidator<unknown>({
      type: 'object',
      properties: { mode: { type: 'integer', enum: [1, 2] }, zone: { type: 'string' } },
      if: { required: ['mode'], properties: { mode: { const: 1 } } },
      then: { required: ['zone'], properties: { zone: { type: 'string' } } },
    });
    expect(() => validate({ mode: 1 })).toThrow(expect.objectContaining({ fieldErrors: { zone: ['is required'] } }));
    expect(() => validate({ mode: 3 })).toThrow(
      expect.objectContaining({ fieldErrors: { mode: ['must be one of 1, 2'] } }),
    );
  });

  it('reports a body that is not an object at the body itself', () => {
    expect(errorsOf([1, 2])).toEqual({ '(body)': ['must be object'] });
    expect(errorsOf(undefined)).toEqual({ '(body)': ['must be object'] });
  });
});

describe('fieldPath', () => {
  it('joins names with dots and indexes with brackets', () => {
    expect(fieldPath(['a', '0', 'b', '12'])).toBe('a[0].b[12]');
    expect(fieldPath([])).toBe('');
  });
});

describe('an array far over its maxItems', () => {
  it('is answered with a bounded number of fields, its own maxItems among them', () => {
    const validate = bodyValidator({
      type: 'object',
      properties: {
        lines: {
          type: 'array',
          maxItems: 50,
          items: { type: 'object', required: ['productId'], properties: { productId: { type: 'string' } } },
        },
      },
    });
    let fieldErrors: Record<string, string[]> = {};
    try {
      validate({ lines: Array.from({ length: 10_000 }, () => ({})) });
    } catch (error) {
      fieldErrors = (error as { fieldErrors: Record<string, string[]> }).fieldErrors;
    }
    expect(Object.keys(fieldErrors)).toHaveLength(MAX_FIELD_ERRORS);
    expect(fieldErrors.lines).toEqual(['must NOT have more than 50 items']);
  });
});

describe('dropUnknown: unknown properties accepted and ignored', () => {
  // An open request shape as the provider contract's are: nested object, nullable shape, array, map.
  const callback = {
    type: 'object',
    required: [],
    properties: { url: { type: ['string', 'null'], minLength: 1 } },
    title: 'Callback',
  };
  const schema = {
    type: 'object',
    required: ['name'],
    properties: {
      name: { type: 'string', pattern: '\\S' },
      webhook: { anyOf: [callback, { type: 'null' }] },
      lines: {
        type: 'array',
        items: { type: 'object', required: ['sku'], properties: { sku: { type: 'string' } } },
      },
      labels: { type: 'object', additionalProperties: { type: 'string' } },
      free: { type: 'object' },
    },
    allOf: [
      { if: { required: ['name'], properties: { name: true } }, then: { properties: { name: { type: 'string' } } } },
    ],
  };
  const validate = bodyValidator<Record<string, unknown>>(schema, { status: 422, dropUnknown: true });

  it('accepts unknown properties at every level and returns a copy without them', () => {
    const body = {
      name: 'n',
      futureField: { deep: true },
      webhook: { url: 'https://example.com/cb', secret: 's', future: 1 },
      lines: [{ sku: 'a', colour: 'red' }, { sku: 'b' }],
      labels: { any: 'kept', other: 'kept too' },
      free: { anything: 'kept' },
    };
    const copy = JSON.parse(JSON.stringify(body));
    expect(validate(body)).toEqual({
      name: 'n',
      webhook: { url: 'https://example.com/cb' },
      lines: [{ sku: 'a' }, { sku: 'b' }],
      labels: { any: 'kept', other: 'kept too' },
      free: { anything: 'kept' },
    });
    expect(body).toEqual(copy); // the body itself is not changed
    expect(validate({ name: 'n', webhook: null, extra: [1] })).toEqual({ name: 'n', webhook: null });
  });

  it('still validates the known properties, whatever else is sent', () => {
    expect(() => validate({ name: ' ', extra: 1 })).toThrow(
      expect.objectContaining({ kind: 'unprocessable', fieldErrors: { name: ['must match pattern "\\S"'] } }),
    );
    expect(() => validate({ name: 'n', webhook: { url: '', other: 1 } })).toThrow(
      expect.objectContaining({ fieldErrors: { 'webhook.url': ['must NOT have fewer than 1 characters'] } }),
    );
    expect(() => validate({ name: 'n', lines: [{ colour: 'red' }] })).toThrow(
      expect.objectContaining({ fieldErrors: { 'lines[0].sku': ['is required'] } }),
    );
  });

  it('projects without validating: what the schema names, or the value as it is', () => {
    expect(projectOntoSchema(schema, { name: 'n', other: 1 })).toEqual({ name: 'n' });
    expect(projectOntoSchema(schema, 'text')).toBe('text');
    expect(projectOntoSchema({ type: 'object' }, { a: 1 })).toEqual({ a: 1 });
  });
});
