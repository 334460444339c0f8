import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** A request the server has not finished answering: what a stop that runs out of time names. */
export interface InFlightRequest {
  method: string;
  /** The path only: a query string may carry a token. */
  path: string;
  ageMs: number;
}

export interface InFlight {
  /** The requests being answered now, oldest first (in the order they came). */
  list(): InFlightRequest[];
  /**
   * Every answer still to be sent closes its connection after it (`Connection: close`). A request
   * that began before the stop would otherwise answer on a kept-alive connection, and its client
   * could send the next request on it before the idle sweep closes it: a chain of requests that
   * keeps a stopping server busy.
   */
  closeAfterAnswers(): void;
  /**
   * Closes every connection with no request being answered: kept-alive ones between requests, and
   * also connections opened that have not sent a complete request yet, which Node's own
   * `closeIdleConnections` leaves open (a stop would wait for them until the headers timeout).
   */
  closeIdle(): void;
}

/**
 * The requests `server` is answering right now. A graceful stop waits for them; when it gives up,
 * the log says which ones held it (a request that never ends is otherwise invisible: the request
 * log writes a line only once the answer is sent).
 */
export function trackInFlight(server: Server, now: () => number = Date.now): InFlight {
  const open = new Map<ServerResponse, { method: string; path: string; since: number }>();
  /** Each connection, with the number of its requests being answered. */
  const connections = new Map<Socket, number>();
  server.on('connection', (socket: Socket) => {
    connections.set(socket, 0);
    socket.once('close', () => connections.delete(socket));
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    open.set(res, { method: req.method ?? '?', path: (req.url ?? '').split('?')[0] ?? '', since: now() });
    const socket = req.socket;
    if (connections.has(socket)) connections.set(socket, (connections.get(socket) ?? 0) + 1);
    res.once('close', () => {
      open.delete(res);
      if (connections.has(socket)) connections.set(socket, Math.max(0, (connections.get(socket) ?? 1) - 1));
    });
  });
  return {
    list: () =>
      [...open.values()].map(({ method, path, since }) => ({ method, path, ageMs: Math.max(0, now() - since) })),
    closeAfterAnswers: () => {
      for (const res of open.keys()) if (!res.headersSent) res.shouldKeepAlive = false;
    },
    closeIdle: () => {
      for (const [socket, answering] of connections) if (answering === 0) socket.destroy();
    },
  };
}
