import { capabilityEnabled, dispatchIneligibility, normalBaseUrl, type ProviderConnection } from './connection';

const AT = new Date('2026-11-24T10:00:00Z');

function connection(capabilities: ProviderConnection['capabilities']): ProviderConnection {
  return {
    _id: 'conn-1',
    tenantId: null,
    name: 'Demo Fleet',
    baseUrl: 'https://fleet.example/v1',
    apiKeySealed: 'sealed-key',
    signingSecretSealed: 'sealed-secret',
    contract: { version: '1.1.0', revision: '2026-09-19' },
    preparationTimeMinutes: 15,
    capabilities,
    createdAt: AT,
    updatedAt: AT,
    version: 1,
  };
}

const grant = (enabled: boolean, by: 'certificate' | 'administrator' = 'certificate') => ({
  enabled,
  by,
  reason: 'for the record',
  at: AT,
});

describe('capabilityEnabled', () => {
  it('only a grant that enables it', () => {
    expect(capabilityEnabled(connection({ supportsPolling: grant(true) }), 'supportsPolling')).toBe(true);
    expect(capabilityEnabled(connection({ supportsPolling: grant(true, 'administrator') }), 'supportsPolling')).toBe(
      true,
    );
    expect(capabilityEnabled(connection({ supportsPolling: grant(false) }), 'supportsPolling')).toBe(false);
    expect(capabilityEnabled(connection({}), 'supportsPolling')).toBe(false);
    expect(capabilityEnabled(connection({ core: grant(true) }), 'supportsPolling')).toBe(false);
  });
});

describe('dispatchIneligibility', () => {
  it('core enabled, by a certificate or an administrator: eligible', () => {
    expect(dispatchIneligibility(connection({ core: grant(true) }))).toBeUndefined();
    expect(dispatchIneligibility(connection({ core: grant(true, 'administrator') }))).toBeUndefined();
  });

  it('core absent or disabled: delivery.connection_not_certified, whatever else is enabled', () => {
    for (const capabilities of [
      {},
      { core: grant(false) },
      { core: grant(false, 'administrator') },
      { supportsPolling: grant(true), supportsWebhooks: grant(true) },
    ])
      expect(dispatchIneligibility(connection(capabilities))).toEqual({
        code: 'delivery.connection_not_certified',
        message: expect.stringContaining('not enabled for deliveries') as string,
      });
  });
});

describe('normalBaseUrl', () => {
  it.each([
    ['https://fleet.example/v1', 'https://fleet.example/v1'],
    ['https://fleet.example/v1/', 'https://fleet.example/v1'],
    ['https://fleet.example/v1///', 'https://fleet.example/v1'],
    ['https://fleet.example/api/v1/', 'https://fleet.example/api/v1'],
  ])('%s is %s', (url, normal) => {
    expect(normalBaseUrl(url)).toBe(normal);
  });
});
