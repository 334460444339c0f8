import { AppError, conflict, isRetriable, notFound, validationError } from './index';

describe('AppError', () => {
  it('is retriable only when unavailable or rate limited', () => {
    expect(new AppError('unavailable', 'db.down', 'x').retriable).toBe(true);
    expect(new AppError('rate_limited', 'rate_limited', 'x').retriable).toBe(true);
    expect(validationError('v', 'x').retriable).toBe(false);
    expect(conflict('c', 'x').retriable).toBe(false);
    expect(notFound().code).toBe('resource.not_found');
  });
});

describe('isRetriable', () => {
  it('trusts the markers of drivers and the network', () => {
    expect(isRetriable(Object.assign(new Error('kafka'), { retriable: true }))).toBe(true);
    expect(isRetriable(Object.assign(new Error('x'), { name: 'MongoServerSelectionError' }))).toBe(true);
    expect(isRetriable(Object.assign(new Error('x'), { code: 'ECONNRESET' }))).toBe(true);
    expect(isRetriable({ hasErrorLabel: (label: string) => label === 'RetryableWriteError' })).toBe(true);
  });

  it('treats everything else as not retriable', () => {
    expect(isRetriable(new TypeError('bug'))).toBe(false);
    expect(isRetriable(Object.assign(new Error('dup'), { code: 11000 }))).toBe(false);
    expect(isRetriable(undefined)).toBe(false);
    expect(isRetriable('string')).toBe(false);
  });
});
