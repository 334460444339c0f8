import { AppError, type ErrorKind } from '@marketplace/errors';
import { problemTypeUri, statusOf } from '@marketplace/http';
import { scanErrorCodes, statusesByCode } from '@marketplace/testing';
import { problemPage } from './pages';
import { PROBLEM_TYPES } from './problem-types';

// Every code a problem+json answer can carry has a page at /docs/problems/<code> (its `type`), with
// the statuses it is sent with, and no page describes a code nothing sends. The codes are read
// from the source of every process that answers in problem+json: the shared layers, the gateway
// and the services behind it (provider-delivery answers in its contract's error envelope instead).
// docs.int.test.ts fetches every page from a running gateway, and an unknown code's (404).

const SOURCES = [
  'shared/errors/src',
  'shared/http/src',
  'shared/identity/src',
  'shared/redis/src',
  'shared/store/src',
  'services/gateway-auth/src',
  'services/catalog/src',
  'services/ordering-pricing/src',
  'services/delivery-assignment/src',
  'services/webhook-sender/src',
];

/** Codes the scan finds that no HTTP answer carries, and why. */
const NOT_ANSWERED: Record<string, string> = {
  'webhook.installations_behind': "webhook-sender's consumer: retried on the topic, never an HTTP answer",
  'provider_event.delivery_mismatch': "webhook-sender's consumer of provider events: never an HTTP answer",
};

const scan = scanErrorCodes(SOURCES);
const statusOfKind = (kind: string) => statusOf(new AppError(kind as ErrorKind, 'x', 'x'));
const sent = new Map([...statusesByCode(scan.sites, statusOfKind)].filter(([code]) => !(code in NOT_ANSWERED)));

describe('problem types', () => {
  it('reads a code at every place the scanned sources make an error', () => {
    expect(scan.unresolved).toEqual([]);
    expect(sent.size).toBeGreaterThan(50);
  });

  it('has a page for every code sent, with the statuses it is sent with', () => {
    const missing = [...sent.keys()].filter((code) => !PROBLEM_TYPES.has(code)).sort();
    const wrongStatuses = [...sent]
      .filter(([code, statuses]) => PROBLEM_TYPES.has(code) && statuses.length > 0)
      .filter(([code, statuses]) => JSON.stringify(PROBLEM_TYPES.get(code)!.statuses) !== JSON.stringify(statuses))
      .map(
        ([code, statuses]) =>
          `${code}: sent ${statuses.join(', ')}, page ${PROBLEM_TYPES.get(code)!.statuses.join(', ')}`,
      );
    expect({ missing, wrongStatuses }).toEqual({ missing: [], wrongStatuses: [] });
  });

  it('describes no code that is never sent, and excludes only codes the scan finds', () => {
    expect([...PROBLEM_TYPES.keys()].filter((code) => !sent.has(code)).sort()).toEqual([]);
    const found = statusesByCode(scan.sites, statusOfKind);
    expect(Object.keys(NOT_ANSWERED).filter((code) => !found.has(code))).toEqual([]);
  });

  it.each([...PROBLEM_TYPES.values()].map((t) => [t.code, t] as const))(
    '%s: title, status, meaning, what to do and whether to retry',
    (code, type) => {
      expect(type.statuses.length).toBeGreaterThan(0);
      for (const text of [type.title, type.meaning, type.action, type.retry, type.apis])
        expect(text.length).toBeGreaterThan(2);
      const html = problemPage(type, '');
      expect(html).toContain(`<code>${code}</code>`);
      expect(html).toContain(`<code>${problemTypeUri(code)}</code>`);
      for (const status of type.statuses) expect(html).toContain(String(status));
      for (const heading of ['What it means', 'What to do', 'Retry']) expect(html).toContain(`<h2>${heading}</h2>`);
    },
  );
});
