import { AppError } from '@marketplace/errors';
import { formatError, problemTypeUri, statusOf, toAppError } from './error-format';

/** An error as the MongoDB driver throws it when the engine cannot be reached. */
function driverError(name: string): Error {
  const error = new Error('connect ECONNREFUSED 127.0.0.1:27017');
  error.name = name;
  return error;
}

describe('toAppError', () => {
  it.each(['MongoServerSelectionError', 'MongoNetworkError', 'MongoNotConnectedError', 'MongoPoolClearedError'])(
    'answers a database out of reach (%s) with 503 service.unavailable and Retry-After, not a 500',
    (name) => {
      const error = toAppError(driverError(name));
      expect(statusOf(error)).toBe(503);
      const response = formatError(error, 'problem', '/orders');
      expect(response.body).toMatchObject({ status: 503, code: 'service.unavailable' });
      expect(response.headers['Retry-After']).toBe('1');
      // The driver's message (an address) stays in the log, out of the answer.
      expect(JSON.stringify(response.body)).not.toContain('ECONNREFUSED');
    },
  );

  it('answers a body the client stopped sending (raw-body: stream not readable, aborted) 400, not 500', () => {
    for (const type of ['stream.not.readable', 'request.aborted']) {
      const error = toAppError(Object.assign(new Error('stream is not readable'), { status: 500, type }));
      expect([type, statusOf(error), error.code]).toEqual([type, 400, 'request.aborted']);
    }
  });

  it('keeps any other unexpected error a 500 internal', () => {
    const error = toAppError(new TypeError('x is undefined'));
    expect(statusOf(error)).toBe(500);
    expect(error.code).toBe('internal');
  });
});

describe('the problem type', () => {
  it("is the full path of the code's page, a relative reference the client resolves against the URI it called", () => {
    const response = formatError(new AppError('conflict', 'tenancy.order.price_mismatch', 'x'), 'problem', '/orders');
    expect(response.body.type).toBe('/docs/problems/tenancy.order.price_mismatch');
    expect(new URL(String(response.body.type), 'https://api.example.com/api/partner/v1/orders').href).toBe(
      'https://api.example.com/docs/problems/tenancy.order.price_mismatch',
    );
  });

  it('names the page of a code made by the HTTP layer itself, and is absent from the envelope', () => {
    expect(formatError(toAppError({ status: 415 }), 'problem').body.type).toBe(
      problemTypeUri('request.unsupported_media_type'),
    );
    expect(formatError(toAppError({ status: 415 }), 'envelope').body.type).toBeUndefined();
  });
});
