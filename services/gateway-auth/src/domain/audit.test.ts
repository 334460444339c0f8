import { AUDITED_METHODS, auditAction, auditEventId, auditEventTime, auditTarget, firstAuditEventIdAt } from './audit';

describe('audit events', () => {
  const t = Date.parse('2026-11-22T08:00:00.000Z');

  it('ids are version-7 uuids that sort by time', () => {
    const id = auditEventId(t);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(t);
    expect(auditEventId(t)).not.toBe(id);
    const ids = [t + 5, t, t + 1_000, t - 86_400_000, t + 1].map((ms) => auditEventId(ms));
    expect([...ids].sort()).toEqual([ids[3], ids[1], ids[4], ids[0], ids[2]]);
    // Every event of a moment or later has an id at least the first one of that moment.
    expect(firstAuditEventIdAt(t) <= auditEventId(t)).toBe(true);
    expect(auditEventId(t - 1, Buffer.alloc(10, 0xff)) < firstAuditEventIdAt(t)).toBe(true);
    // The time comes back out of an id; any other uuid is no event's id.
    expect(auditEventTime(id)).toBe(t);
    expect(auditEventTime(id.toUpperCase())).toBe(t);
    expect(auditEventTime('a3bb189e-8bf9-4888-9912-ace4e6543002')).toBeUndefined(); // a v4
    expect(auditEventTime('not-an-id')).toBeUndefined();
  });

  it('audits mutations only, by route pattern', () => {
    expect([...AUDITED_METHODS].sort()).toEqual(['DELETE', 'PATCH', 'POST', 'PUT']);
    expect(auditAction('POST', '/api/tenant/v1/installations/:installationId/api-key/rotate')).toBe(
      'POST /api/tenant/v1/installations/:installationId/api-key/rotate',
    );
  });

  it("keeps the path's identifiers and nothing shaped like a secret", () => {
    const installationId = 'a3bb189e-8bf9-4888-9912-ace4e6543002';
    expect(auditTarget({ installationId })).toEqual({ installationId });
    expect(auditTarget({ appId: installationId, version: '3' })).toEqual({ appId: installationId, version: '3' });
    const apiKey = `mpk_${'a'.repeat(22)}.${'b'.repeat(43)}`;
    const jwt = `eyJhbGciOiJIUzI1NiJ9.${'c'.repeat(60)}.${'d'.repeat(43)}`;
    expect(auditTarget({ installationId: apiKey, tokenId: jwt })).toEqual({ installationId: '…', tokenId: '…' });
    expect(auditTarget({ tenantId: 'x'.repeat(33) })).toEqual({ tenantId: '…' });
    // A forwarded route's tail, as an array (the router's) or a string.
    expect(auditTarget({ rest: ['products', installationId, 'availability'] })).toEqual({
      path: `products/${installationId}/availability`,
    });
    expect(auditTarget({ rest: `attempts/${'s'.repeat(43)}/redeliver` })).toEqual({ path: 'attempts/…/redeliver' });
    expect(auditTarget({ 'bad name': 'x', n: 5 })).toEqual({});
  });
});
