import { mergeIndexPlans } from './service';

it("keeps a collection's own indexes next to the outbox's", () => {
  const own = {
    installations: [{ key: { tenantId: 1, appId: 1, slot: 1 }, name: 'one_live_per_app', unique: true }],
    apps: [{ key: { slug: 1 }, name: 'slug' }],
  };
  const outbox = { installations: [{ key: { _outboxSince: 1 }, name: 'outbox_pending', sparse: true }] };
  expect(mergeIndexPlans(own, outbox)).toEqual({
    installations: [own.installations[0], outbox.installations[0]],
    apps: own.apps,
  });
});
