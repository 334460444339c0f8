import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ReceivedCallback } from '../model';
import { flattenHeaders } from '../http/send';
import { ReceiverBox, type BoxSettings } from './box';

/** The largest callback body the receiver keeps (an event is small; the platform would refuse more). */
export const CALLBACK_BODY_LIMIT_BYTES = 1024 * 1024;

export interface ReceiverOptions {
  /** Local port (0: a free one). */
  port?: number;
  /** Listen address (default 127.0.0.1). */
  host?: string;
  /** A public base URL that forwards to the local port (a provider elsewhere); default `http://<host>:<port>`. */
  publicBaseUrl?: string;
}

export const labelSlug = (label: string): string =>
  label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40) || 'box';

/**
 * The kit's callback receiver: one HTTP server, one unguessable URL per box. It keeps every
 * request's exact bytes, since the signature is over them. A request to an unknown token is
 * answered 404 and kept nowhere: it is nobody's evidence.
 */
export class CallbackReceiver {
  private readonly boxes = new Map<string, ReceiverBox>();
  private readonly arrivals: ReceivedCallback[] = [];
  private lastArrival = 0;

  private constructor(
    private readonly server: Server,
    readonly baseUrl: string,
  ) {}

  static async start(options: ReceiverOptions = {}): Promise<CallbackReceiver> {
    const host = options.host ?? '127.0.0.1';
    let receiver: CallbackReceiver | undefined;
    const server = createServer((request, response) => receiver?.handle(request, response));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, host, () => resolve());
    });
    const port = (server.address() as AddressInfo).port;
    const base = (options.publicBaseUrl ?? `http://${host}:${port}`).replace(/\/+$/, '');
    receiver = new CallbackReceiver(server, base);
    return receiver;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  box(label: string, settings: Pick<BoxSettings, 'defaultTimeoutMs' | 'isAborted'>): ReceiverBox {
    const token = randomBytes(24).toString('base64url');
    const box = new ReceiverBox({
      ...settings,
      label,
      token,
      url: `${this.baseUrl}/callbacks/${labelSlug(label)}/${token}`,
    });
    this.boxes.set(token, box);
    return box;
  }

  /** Every callback of the run, in arrival order. */
  all(): readonly ReceivedCallback[] {
    return this.arrivals;
  }

  /** The routing keys handed out (secrets: redacted from every report). */
  tokens(): string[] {
    return [...this.boxes.keys()];
  }

  /** When the last callback arrived (ms since the epoch; 0 before any). */
  get lastArrivalAt(): number {
    return this.lastArrival;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    const path = request.url ?? '/';
    const segments = path.split('?')[0]!.split('/');
    const box = segments.length >= 3 && segments.at(-3) === 'callbacks' ? this.boxes.get(segments.at(-1)!) : undefined;
    if (!box) {
      request.resume();
      response
        .writeHead(404, { 'content-type': 'application/json' })
        .end('{"code":"not_found","message":"unknown callback","retryable":false}');
      return;
    }
    readLimited(request, CALLBACK_BODY_LIMIT_BYTES).then(
      ({ body, tooLarge }) => {
        const receivedAt = Date.now();
        const recorded = box.accept({ path, headers: flattenHeaders(request.headers), body, receivedAt }, tooLarge);
        this.arrivals.push(recorded);
        this.lastArrival = receivedAt;
        response.writeHead(recorded.answeredStatus, { connection: tooLarge ? 'close' : 'keep-alive' }).end();
      },
      () => response.destroy(),
    );
  }
}

function readLimited(request: IncomingMessage, limit: number): Promise<{ body: Buffer; tooLarge: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      if (size < limit) chunks.push(chunk.subarray(0, limit - size));
      size += chunk.length;
    });
    request.on('end', () => resolve({ body: Buffer.concat(chunks).subarray(0, limit), tooLarge: size > limit }));
    request.on('error', reject);
  });
}
