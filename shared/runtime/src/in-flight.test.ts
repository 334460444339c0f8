import { Agent, createServer, request, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { trackInFlight } from './in-flight';

let server: Server;
let release: () => void = () => undefined;
let arrived: () => void = () => undefined;
const agent = new Agent({ keepAlive: true });

beforeEach(async () => {
  server = createServer((_req, res) => {
    arrived();
    // Answers once the test lets it: the request is in flight meanwhile.
    release = () => res.end('done');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});

afterEach(async () => {
  release();
  agent.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** Sends GET `path` on a kept-alive connection; resolves once the server has the request. */
async function send(path: string): Promise<{ answer: Promise<IncomingMessage> }> {
  const { port } = server.address() as AddressInfo;
  const reached = new Promise<void>((resolve) => (arrived = resolve));
  const answer = new Promise<IncomingMessage>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent }, (res) => {
      res.resume();
      resolve(res);
    });
    req.on('error', reject);
    req.end();
  });
  await reached;
  return { answer };
}

describe('the requests a stopping server is answering', () => {
  it('are listed by method and path, without the query string', async () => {
    let clock = 1_000;
    const inFlight = trackInFlight(server, () => clock);
    const { answer } = await send('/orders/42?token=secret');
    clock = 1_250;
    expect(inFlight.list()).toEqual([{ method: 'GET', path: '/orders/42', ageMs: 250 }]);
    release();
    await answer;
  });

  it('close their kept-alive connection once answered, when the stop asks', async () => {
    const inFlight = trackInFlight(server);
    const { answer } = await send('/slow');
    inFlight.closeAfterAnswers();
    release();
    expect((await answer).headers.connection).toBe('close');
  });

  it('keep their connection alive otherwise', async () => {
    trackInFlight(server);
    const { answer } = await send('/slow');
    release();
    expect((await answer).headers.connection).toBe('keep-alive');
  });

  it('close, with the idle ones, a connection that has sent no request yet', async () => {
    const inFlight = trackInFlight(server);
    const { port } = server.address() as AddressInfo;
    const accepted = new Promise((resolve) => server.once('connection', resolve));
    const silent: Socket = connect(port, '127.0.0.1');
    const closed = new Promise((resolve) => silent.once('close', resolve));
    await accepted;
    server.close();
    inFlight.closeIdle();
    await closed;
    expect(silent.destroyed).toBe(true);
  });

  it('leave a connection alone while its request is being answered', async () => {
    const inFlight = trackInFlight(server);
    const { answer } = await send('/slow');
    inFlight.closeIdle();
    release();
    expect((await answer).statusCode).toBe(200);
  });
});
