import { type JsonSchema, int32, str } from '../json-schema';

/** RFC 9457 problem details with the stable `code`: the error body of every API but the provider contract. */
export const Problem: JsonSchema = {
  type: 'object',
  description:
    'RFC 7807 problem details. Clients switch on `code` (stable, dotted), not on `title` or `detail`. ' +
    'Further members may be added.',
  required: ['status', 'title', 'detail', 'code'],
  properties: {
    type: {
      type: 'string',
      format: 'uri-reference',
      description:
        'The problem type: `/docs/problems/<code>`, a relative URI reference (RFC 9457 §3.1.1) to resolve against ' +
        'the URI of the request, which names a page describing the code (meaning, HTTP status, what to do, whether ' +
        'to retry). One type per `code`.',
    },
    title: str('Short summary of the HTTP status.'),
    status: int32('The HTTP status code.'),
    detail: str('Human-readable explanation. Never contains secrets or which part of a credential was wrong.'),
    code: str('Stable, dotted error code, for example `request.invalid`.'),
    instance: str('The request path the problem occurred on.'),
    errors: {
      type: 'object',
      description:
        'Validation failures only (`request.invalid`): field path, written the way clients write it ' +
        '(for example `lines[2].modifierSelections[0].modifierOptionId`), mapped to messages.',
      additionalProperties: { type: 'array', items: { type: 'string' } },
    },
    status_detail: {
      type: 'object',
      description: 'The order-not-cancellable conflict only: the current status of the order, by name.',
      required: ['status'],
      properties: { status: str('Current status name, for example `Accepted`.') },
    },
  },
};

/** The problem with members of one API's own (catalog's `usedBy`, say), for that API's document. */
export const problemWith = (members: Record<string, JsonSchema>): JsonSchema => ({
  ...Problem,
  properties: { ...(Problem.properties as Record<string, JsonSchema>), ...members },
});
