import type { Exchange } from '../model';
import { ref } from '../spec';
import type { ConformanceTest, TestContext } from '../test-api';
import { describe, expectEnvelope } from './support/checks';
import { credentialEchoes, wrongKeyLike } from './support/requests-auth';
import { send } from './support/requests-calls';

/** "Authentication": every request carries `Authorization: Bearer <API_KEY>`; missing or invalid credentials are 401. */

const createWith = (ctx: TestContext, auth: string): Promise<Exchange> =>
  send(ctx, 'POST', '/deliveries', { body: ctx.deliveryRequest({}, null), auth });

const noAuthorization: ConformanceTest = {
  id: 'SDP-AUTH-01',
  capability: 'core',
  group: 'auth',
  title: 'POST /deliveries without Authorization is 401 with the error envelope',
  spec: ref('authentication'),
  async run(ctx: TestContext) {
    const exchange = await createWith(ctx, 'none');
    expectEnvelope(ctx, exchange, [401], 'a create without Authorization');
  },
};

const unknownKey: ConformanceTest = {
  id: 'SDP-AUTH-02',
  capability: 'core',
  group: 'auth',
  title: 'An unknown API key of the real key’s shape is 401 with the error envelope',
  spec: ref('authentication'),
  async run(ctx: TestContext) {
    const exchange = await createWith(ctx, `Bearer ${wrongKeyLike(ctx.apiKey)}`);
    ctx.note('sent a key of the same length and alphabet as the real one, characters changed');
    expectEnvelope(ctx, exchange, [401], 'a create with an unknown API key');
  },
};

const otherScheme: ConformanceTest = {
  id: 'SDP-AUTH-03',
  capability: 'core',
  group: 'auth',
  title: 'The real key in another scheme (Basic, Token) is 401 with the error envelope',
  spec: ref('authentication'),
  async run(ctx: TestContext) {
    const basic = await createWith(ctx, `Basic ${Buffer.from(`${ctx.apiKey}:`).toString('base64')}`);
    const token = await createWith(ctx, `Token ${ctx.apiKey}`);
    expectEnvelope(ctx, basic, [401], 'the API key sent as `Basic <base64 key:>`');
    expectEnvelope(ctx, token, [401], 'the API key sent as `Token <key>`');
  },
};

const noEcho: ConformanceTest = {
  id: 'SDP-AUTH-04',
  capability: 'core',
  group: 'auth',
  title: 'No 401 body echoes the credentials sent',
  spec: ref('errors'),
  async run(ctx: TestContext) {
    const wrong = wrongKeyLike(ctx.apiKey);
    const attempts: Array<{ auth: string; sent: string[]; what: string }> = [
      { auth: `Bearer ${wrong}`, sent: [wrong], what: 'an unknown Bearer key' },
      {
        auth: `Basic ${Buffer.from(`${ctx.apiKey}:`).toString('base64')}`,
        sent: [ctx.apiKey],
        what: 'the key in the Basic scheme',
      },
      { auth: `Token ${ctx.apiKey}`, sent: [ctx.apiKey], what: 'the key in the Token scheme' },
    ];
    for (const attempt of attempts) {
      const exchange = await createWith(ctx, attempt.auth);
      if (exchange.status !== 401) {
        ctx.note(`${attempt.what}: ${describe(exchange)} (not a 401; SDP-AUTH-02/03 judge the status)`);
      }
      const echoes = credentialEchoes(exchange, [...attempt.sent, attempt.auth]);
      ctx.check(
        echoes.length === 0,
        `${attempt.what}: expected a body without the credentials sent, got ${describe(exchange)} whose ${echoes.join(' and ')} echo them`,
      );
    }
  },
};

export const AUTH_TESTS: readonly ConformanceTest[] = [noAuthorization, unknownKey, otherScheme, noEcho];
