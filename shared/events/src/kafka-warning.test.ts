import { isKafkajsNegativeTimeoutWarning } from './kafka';

// kafkajs's negative request-queue delay (tulios/kafkajs#1751) makes Node 24 print a warning at
// every connection; createKafka drops that one warning when kafkajs's own frames emit it.
describe('the kafkajs negative-timeout warning', () => {
  const kafkajsStack = [
    'Error',
    '    at process.emitWarning (shared/events/dist/kafka.js:30:9)',
    '    at new Timeout (node:internal/timers:195:17)',
    '    at RequestQueue.scheduleCheckPendingRequests (node_modules/kafkajs/src/network/requestQueue/index.js:317:37)',
  ].join('\n');

  it('is dropped when kafkajs emits it', () => {
    expect(isKafkajsNegativeTimeoutWarning('TimeoutNegativeWarning', kafkajsStack)).toBe(true);
  });

  it('is kept from anywhere else, and every other warning is kept', () => {
    expect(
      isKafkajsNegativeTimeoutWarning('TimeoutNegativeWarning', 'Error\n    at ours (services/x/dist/a.js:1:1)'),
    ).toBe(false);
    expect(isKafkajsNegativeTimeoutWarning('DeprecationWarning', kafkajsStack)).toBe(false);
    expect(isKafkajsNegativeTimeoutWarning(undefined, kafkajsStack)).toBe(false);
  });
});
