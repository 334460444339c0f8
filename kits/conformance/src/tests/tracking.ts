import type { Status } from '../model';
import { ref, TERMINAL } from '../spec';
import type { ConformanceTest, TestContext, TrackedDelivery } from '../test-api';
import { expectEnvelope, expectOkObject } from './support/checks';
import { trackingProblems } from './support/lifecycle-answers';
import { deliveryPath, readNow, unknownDeliveryId } from './support/lifecycle-ride';

/** "Status and tracking (GET)", "Tracking response": GET …/tracking. */

const DRIVER_FIELDS = ['driverName', 'driverPhone', 'driverLat', 'driverLng'] as const;
/** Statuses in which a driver is on the delivery. */
const WITH_DRIVER: readonly Status[] = ['driver_assigned', 'arrived_at_pickup', 'picked_up', 'on_the_way'];

const readTracking = async (ctx: TestContext, delivery: TrackedDelivery, what: string) => {
  const exchange = await ctx.provider.call('GET', deliveryPath(delivery.providerDeliveryId, '/tracking'));
  return expectOkObject(ctx, exchange, what);
};

const unknownTracking: ConformanceTest = {
  id: 'SDP-TRACKING-01',
  capability: 'supportsTracking',
  group: 'tracking',
  title: 'The tracking of an unknown delivery is 404 with the error envelope',
  spec: ref('statusTracking'),
  async run(ctx: TestContext) {
    const exchange = await ctx.provider.call('GET', deliveryPath(unknownDeliveryId(), '/tracking'));
    expectEnvelope(ctx, exchange, [404], 'GET …/tracking of a delivery id never issued');
  },
};

const trackingShape: ConformanceTest = {
  id: 'SDP-TRACKING-02',
  capability: 'supportsTracking',
  group: 'tracking',
  title: 'Tracking reads along a lifecycle have the right types, an RFC 3339 eventTimeUtc and paired coordinates',
  spec: ref('trackingResponse'),
  async run(ctx: TestContext) {
    const delivery = await ctx.createDelivery();
    const points: Array<() => Promise<string>> = [
      async () => 'just created',
      async () => `in ${await delivery.waitForStatus([...WITH_DRIVER, ...TERMINAL], 'a driver on the delivery')}`,
      async () => `in ${await delivery.waitForStatus(TERMINAL, 'a terminal status')}`,
    ];
    for (const point of points) {
      const where = await point();
      const body = await readTracking(ctx, delivery, `the tracking read ${where}`);
      const problems = trackingProblems(body);
      ctx.check(problems.length === 0, `the tracking read ${where}: ${problems.join('; ')}`);
      const known = DRIVER_FIELDS.filter((f) => body[f] !== null && body[f] !== undefined);
      ctx.note(`tracking read ${where}: well formed; driver fields given: ${known.join(', ') || 'none'}`);
    }
  },
};

const nullsNeverInvented: ConformanceTest = {
  id: 'SDP-TRACKING-03',
  capability: 'supportsTracking',
  group: 'tracking',
  title: 'A held delivery without a driver has null driverName, driverPhone, driverLat and driverLng',
  spec: ref('trackingResponse'),
  async run(ctx: TestContext) {
    const delivery = await ctx.createDelivery({ hold: true });
    const body = await readTracking(ctx, delivery, 'the tracking read of a held delivery');
    const { status } = await readNow(ctx, delivery, 'the status read of a held delivery');
    if (WITH_DRIVER.includes(status) || TERMINAL.includes(status))
      ctx.skip(`the held delivery was ${status} already (a driver on it or ended): nothing to say about invented data`);
    const invented = DRIVER_FIELDS.filter((f) => body[f] !== null && body[f] !== undefined);
    ctx.check(
      invented.length === 0,
      `the tracking read of a delivery without a driver (status ${status}): expected null ${DRIVER_FIELDS.join(', ')}, got a value for ${invented.join(', ')}`,
    );
    const absent = DRIVER_FIELDS.filter((f) => body[f] === undefined);
    if (absent.length > 0) ctx.note(`absent rather than null: ${absent.join(', ')}`);
    ctx.note(`status ${status}: driver fields null`);
  },
};

export const TRACKING_TESTS: readonly ConformanceTest[] = [unknownTracking, trackingShape, nullsNeverInvented];
