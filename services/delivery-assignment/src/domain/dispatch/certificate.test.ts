import { CONNECTION_CAPABILITIES, type ConformanceCertificate } from '@marketplace/contracts';
import { applyCertificate, CERTIFICATE_MAX_AGE_DAYS } from './certificate';
import { capabilityEnabled, dispatchIneligibility, type CapabilityGrant, type ProviderConnection } from './connection';

const NOW = new Date('2026-11-24T10:00:00Z');
const REGISTERED = new Date('2026-10-01T08:00:00Z');
const EARLIER = new Date('2026-10-02T08:00:00Z');
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

function connection(overrides: Partial<ProviderConnection> = {}): ProviderConnection {
  return {
    _id: 'conn-1',
    tenantId: 'tenant-1',
    name: 'Demo Fleet',
    baseUrl: 'https://fleet.example/v1',
    apiKeySealed: 'sealed-key',
    signingSecretSealed: 'sealed-secret',
    contract: { version: '1.0.0', revision: '2026-01-15' },
    preparationTimeMinutes: 15,
    capabilities: {},
    createdAt: REGISTERED,
    updatedAt: REGISTERED,
    version: 4,
    ...overrides,
  };
}

function certificate(overrides: Partial<ConformanceCertificate> = {}): ConformanceCertificate {
  return {
    kind: 'sdp-conformance-certificate',
    kit: { name: 'sdp-conformance', version: '1.4.2' },
    contract: { version: '1.1.0', revision: '2026-09-19' },
    provider: { baseUrl: 'https://fleet.example/v1', name: 'Demo Fleet' },
    certified: ['core', 'supportsPolling', 'supportsCancellation'],
    finishedAt: '2026-11-24T09:00:00.000Z',
    reportSha256: 'ab'.repeat(32),
    signature: { algorithm: 'Ed25519', publicKey: 'pk', value: 'sig' },
    ...overrides,
  };
}

const REASON = 'sdp-conformance 1.4.2, run finished 2026-11-24T09:00:00.000Z';
const byCertificate = (enabled: boolean): CapabilityGrant => ({ enabled, by: 'certificate', reason: REASON, at: NOW });
const byAdministrator = (enabled: boolean): CapabilityGrant => ({
  enabled,
  by: 'administrator',
  reason: 'Checked by hand with the provider',
  at: EARLIER,
});
const byOldCertificate = (enabled: boolean): CapabilityGrant => ({
  enabled,
  by: 'certificate',
  reason: 'sdp-conformance 1.3.0, run finished 2026-10-02T07:00:00.000Z',
  at: EARLIER,
});

function applied(conn: ProviderConnection, cert: ConformanceCertificate): ProviderConnection {
  const outcome = applyCertificate(conn, cert, NOW);
  if ('refused' in outcome) throw new Error(`refused: ${outcome.refused}`);
  return outcome.next;
}

describe('applyCertificate: refusals', () => {
  it.each([
    ['another host', 'https://other.example/v1'],
    ['another path', 'https://fleet.example/v2'],
    ['the staging environment', 'https://staging.fleet.example/v1'],
    ['plain http', 'http://fleet.example/v1'],
  ])('a certificate for %s', (_, baseUrl) => {
    expect(applyCertificate(connection(), certificate({ provider: { baseUrl, name: 'Demo Fleet' } }), NOW)).toEqual({
      refused: `the certificate is for ${baseUrl}, not for this connection's base URL`,
    });
  });

  it.each(['2.0.0', '0.9.0', '1.1', '1', 'v1.1.0', '1.1.0-beta', '10.0.0', ' 1.1.0', ''])(
    'contract version %j is not a 1.x version',
    (version) => {
      expect(
        applyCertificate(connection(), certificate({ contract: { version, revision: '2026-09-19' } }), NOW),
      ).toEqual({ refused: `the certificate is for contract ${version}, not a 1.x version` });
    },
  );

  it('dated more than 5 minutes in the future', () => {
    for (const finishedAt of [iso(NOW.getTime() + 5 * 60_000 + 1), '2027-01-01T00:00:00Z'])
      expect(applyCertificate(connection(), certificate({ finishedAt }), NOW)).toEqual({
        refused: 'the certificate is dated in the future',
      });
  });

  it('without a valid finishedAt', () => {
    for (const finishedAt of ['yesterday', ''])
      expect(applyCertificate(connection(), certificate({ finishedAt }), NOW)).toEqual({
        refused: 'the certificate has no valid finishedAt',
      });
  });

  it('older than 365 days', () => {
    expect(CERTIFICATE_MAX_AGE_DAYS).toBe(365);
    for (const finishedAt of [iso(NOW.getTime() - 365 * DAY - 1), '2024-01-01T00:00:00Z'])
      expect(applyCertificate(connection(), certificate({ finishedAt }), NOW)).toEqual({
        refused: 'the certificate is older than 365 days',
      });
  });

  it('without core', () => {
    for (const certified of [[], ['supportsPolling', 'supportsCancellation'], ['Core']])
      expect(applyCertificate(connection(), certificate({ certified }), NOW)).toEqual({
        refused: 'the certificate does not certify the core of the contract',
      });
  });

  it('a refusal leaves the connection as it was', () => {
    const conn = connection({ capabilities: { core: byOldCertificate(true) } });
    const before = structuredClone(conn);
    applyCertificate(conn, certificate({ certified: ['supportsPolling'] }), NOW);
    expect(conn).toEqual(before);
  });
});

describe('applyCertificate: what it accepts', () => {
  it("the certificate's base URL with trailing slashes (normalised as the connection's is stored)", () => {
    for (const baseUrl of ['https://fleet.example/v1/', 'https://fleet.example/v1//'])
      expect(applyCertificate(connection(), certificate({ provider: { baseUrl, name: 'x' } }), NOW)).toHaveProperty(
        'next',
      );
  });

  it.each(['1.0.0', '1.1.0', '1.12.3'])('contract %s', (version) => {
    expect(applied(connection(), certificate({ contract: { version, revision: '2026-09-19' } })).contract).toEqual({
      version,
      revision: '2026-09-19',
    });
  });

  it('dated up to 5 minutes in the future (clocks differ), and up to exactly 365 days old', () => {
    for (const finishedAt of [
      iso(NOW.getTime() + 5 * 60_000),
      iso(NOW.getTime()),
      iso(NOW.getTime() - 365 * DAY),
      '2026-11-24T11:00:00+01:00',
    ])
      expect(applyCertificate(connection(), certificate({ finishedAt }), NOW)).toHaveProperty('next');
  });
});

describe('applyCertificate: the capabilities', () => {
  it('a first certificate enables what it certifies, and records the contract it certified', () => {
    const next = applied(connection(), certificate());
    expect(next).toEqual({
      ...connection(),
      contract: { version: '1.1.0', revision: '2026-09-19' },
      capabilities: {
        core: byCertificate(true),
        supportsPolling: byCertificate(true),
        supportsCancellation: byCertificate(true),
      },
      updatedAt: NOW,
    });
    expect(dispatchIneligibility(next)).toBeUndefined();
  });

  it('every capability the platform knows can be certified', () => {
    const next = applied(connection(), certificate({ certified: [...CONNECTION_CAPABILITIES] }));
    for (const capability of CONNECTION_CAPABILITIES)
      expect(next.capabilities[capability]).toEqual(byCertificate(true));
  });

  it('names it does not know, and proof of delivery, enable nothing', () => {
    const next = applied(
      connection(),
      certificate({ certified: ['core', 'supportsProofOfDelivery', 'supportsTeleportation'] }),
    );
    expect(next.capabilities).toEqual({ core: byCertificate(true) });
  });

  it('a recertification disables what the last certificate enabled and this one does not', () => {
    const conn = connection({
      capabilities: {
        core: byOldCertificate(true),
        supportsPolling: byOldCertificate(true),
        supportsTracking: byOldCertificate(true),
        supportsReturnToOrigin: byOldCertificate(true),
      },
    });
    const next = applied(conn, certificate());
    expect(next.capabilities).toEqual({
      core: byCertificate(true),
      supportsPolling: byCertificate(true),
      supportsCancellation: byCertificate(true),
      supportsTracking: byCertificate(false),
      supportsReturnToOrigin: byCertificate(false),
    });
    expect(capabilityEnabled(next, 'supportsTracking')).toBe(false);
    expect(capabilityEnabled(next, 'supportsReturnToOrigin')).toBe(false);
  });

  it('a capability an earlier certificate left disabled stays disabled', () => {
    const next = applied(connection({ capabilities: { supportsTracking: byOldCertificate(false) } }), certificate());
    expect(capabilityEnabled(next, 'supportsTracking')).toBe(false);
  });

  it("an administrator's grant the certificate does not cover stays, enabled or disabled", () => {
    const conn = connection({
      capabilities: {
        core: byAdministrator(true),
        supportsWebhooks: byAdministrator(true),
        supportsUpdates: byAdministrator(false),
      },
    });
    const next = applied(conn, certificate());
    expect(next.capabilities).toEqual({
      core: byCertificate(true),
      supportsPolling: byCertificate(true),
      supportsCancellation: byCertificate(true),
      supportsWebhooks: byAdministrator(true),
      supportsUpdates: byAdministrator(false),
    });
  });

  it("a capability the certificate covers is the certificate's, whatever an administrator said before", () => {
    const conn = connection({ capabilities: { supportsPolling: byAdministrator(false) } });
    expect(applied(conn, certificate()).capabilities.supportsPolling).toEqual(byCertificate(true));
  });

  it('the rest of the connection is untouched', () => {
    const conn = connection({ capabilities: { core: byOldCertificate(true) } });
    const next = applied(conn, certificate());
    const { capabilities: _c, contract: _k, updatedAt: _u, ...rest } = next;
    const { capabilities: _c0, contract: _k0, updatedAt: _u0, ...before } = conn;
    expect(rest).toEqual(before);
    expect(next.version).toBe(4);
  });
});
