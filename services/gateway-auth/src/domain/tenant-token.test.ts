import { isAppError } from '@marketplace/errors';
import { TENANT_TOKEN_LIFETIME, tenantTokenLifetime } from './tenant-token';

const DAY = 86_400;

function refusal(request: Parameters<typeof tenantTokenLifetime>[0]) {
  try {
    tenantTokenLifetime(request);
  } catch (error) {
    if (isAppError(error)) return { status: error.kind, code: error.code, fieldErrors: error.fieldErrors };
    throw error;
  }
  throw new Error(`accepted ${JSON.stringify(request)}`);
}

describe('the lifetime of a tenant token', () => {
  it('is 30 days unless asked otherwise', () => {
    expect(TENANT_TOKEN_LIFETIME.defaultSeconds).toBe(30 * DAY);
    expect(tenantTokenLifetime({})).toBe(30 * DAY);
    expect(tenantTokenLifetime({ allowLongerThan30Days: true })).toBe(30 * DAY);
  });

  it('is what the administrator asks, from a minute to 30 days', () => {
    expect(tenantTokenLifetime({ expiresInSeconds: 60 })).toBe(60);
    expect(tenantTokenLifetime({ expiresInSeconds: 3600 })).toBe(3600);
    expect(tenantTokenLifetime({ expiresInSeconds: 30 * DAY })).toBe(30 * DAY);
    expect(tenantTokenLifetime({ expiresInSeconds: 30 * DAY, allowLongerThan30Days: false })).toBe(30 * DAY);
  });

  it('is longer than 30 days only when asked for explicitly, and never longer than 365', () => {
    expect(tenantTokenLifetime({ expiresInSeconds: 30 * DAY + 1, allowLongerThan30Days: true })).toBe(30 * DAY + 1);
    expect(tenantTokenLifetime({ expiresInSeconds: 365 * DAY, allowLongerThan30Days: true })).toBe(365 * DAY);
    expect(refusal({ expiresInSeconds: 30 * DAY + 1 })).toEqual({
      status: 'validation',
      code: 'request.invalid',
      fieldErrors: { expiresInSeconds: ['must be <= 2592000 (30 days) unless allowLongerThan30Days is true'] },
    });
    expect(refusal({ expiresInSeconds: 90 * DAY, allowLongerThan30Days: false }).fieldErrors).toEqual({
      expiresInSeconds: ['must be <= 2592000 (30 days) unless allowLongerThan30Days is true'],
    });
    expect(refusal({ expiresInSeconds: 365 * DAY + 1, allowLongerThan30Days: true }).fieldErrors).toEqual({
      expiresInSeconds: ['must be <= 31536000 (365 days)'],
    });
  });

  it('is at least a minute, in whole seconds', () => {
    for (const expiresInSeconds of [59, 0, -1, 60.5])
      expect(refusal({ expiresInSeconds }).fieldErrors).toEqual({
        expiresInSeconds: ['must be an integer of at least 60'],
      });
  });
});
