import { Writable } from 'node:stream';
import { createLogger } from './index';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { lines, log: createLogger({ service: 'test', level: 'debug', destination }) };
}

describe('createLogger', () => {
  it('writes JSON with service, level label and message', () => {
    const { lines, log } = capture();
    log.info({ orderId: 'o-1' }, 'order created');
    expect(lines[0]).toMatchObject({ service: 'test', level: 'info', msg: 'order created', orderId: 'o-1' });
  });

  it('redacts secrets and driver personal data at any depth, whatever the key spelling', () => {
    const { lines, log } = capture();
    log.info(
      {
        req: { headers: { Authorization: 'ApiKey k.s', 'x-request-id': 'r1' } },
        installation: {
          apiSecret: 'shh',
          webhook_signing_secret: 'whs',
          oauth: { access_token: 'at', refreshToken: 'rt' },
        },
        delivery: { driverName: 'Ann', driverPhone: '+100', status: 'picked_up' },
        callbackToken: 'ct',
      },
      'x',
    );
    const text = JSON.stringify(lines[0]);
    for (const secret of ['ApiKey k.s', 'shh', 'whs', '"at"', '"rt"', 'Ann', '+100', '"ct"'])
      expect(text).not.toContain(secret);
    expect(lines[0]).toMatchObject({ req: { headers: { 'x-request-id': 'r1' } }, delivery: { status: 'picked_up' } });
  });

  it('serialises errors with type and code, keeping the stack for operators', () => {
    const { lines, log } = capture();
    const error = Object.assign(new Error('boom'), { code: 'E_X' });
    log.error({ err: error }, 'failed');
    expect(lines[0]!.err).toMatchObject({ type: 'Error', message: 'boom', errorCode: 'E_X' });
    expect(String((lines[0]!.err as { stack: string }).stack)).toContain('boom');
  });
});
