// The benches' HTTP client: one keep-alive agent, never a thrown error (status 0 when no answer
// came), the latency of every request.
import { Agent, request } from 'node:http';

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const agent = new Agent({ keepAlive: true, maxSockets: 512 });

/** One HTTP request: status, text body and latency in ms. `body` is JSON-encoded unless it is a string already. */
export function send(url, method, headers, body) {
  const started = performance.now();
  return new Promise((resolve) => {
    const done = (status, text) => resolve({ status, body: text, ms: performance.now() - started });
    const req = request(
      url,
      {
        method,
        agent,
        headers: { ...headers, ...(body !== undefined && { 'content-type': 'application/json; charset=utf-8' }) },
        timeout: 30_000,
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => done(res.statusCode, Buffer.concat(chunks).toString('utf8')));
        res.on('error', (error) => done(0, JSON.stringify({ code: error.message })));
      },
    );
    req.on('timeout', () => req.destroy(new Error('no answer within 30 s')));
    req.on('error', (error) => done(0, JSON.stringify({ code: error.message })));
    req.end(body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body));
  });
}

/** The JSON body of an answer, or undefined when it is not JSON. */
export const parsed = (res) => {
  try {
    return JSON.parse(res.body);
  } catch {
    return undefined; // not JSON
  }
};

/** The error code of an answer ('' when it has none). */
export const codeOf = (res) => parsed(res)?.code ?? '';

/** Closes the kept-alive sockets, so a bench's process can end. */
export const closeHttp = () => agent.destroy();
