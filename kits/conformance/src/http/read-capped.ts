import type { IncomingMessage } from 'node:http';

/** Past this the kit stops reading: the platform accepts at most 5 MiB, so 6 MiB proves an overrun. */
export const RESPONSE_READ_CAP_BYTES = 6 * 1024 * 1024;

/**
 * Reads a response body up to the cap. An answer longer than the cap is cut (the socket closed);
 * its size is what was read, or its Content-Length when that says more.
 */
export function readCapped(
  response: IncomingMessage,
  cap = RESPONSE_READ_CAP_BYTES,
): Promise<{ body: Buffer; bytes: number }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      const declared = Number(response.headers['content-length']);
      const body = Buffer.concat(chunks);
      resolve({ body: body.subarray(0, cap), bytes: Number.isFinite(declared) && declared > bytes ? declared : bytes });
    };
    response.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes <= cap + chunk.length) chunks.push(chunk);
      if (bytes > cap) {
        finish();
        response.destroy();
      }
    });
    response.on('end', finish);
    response.on('close', finish);
    response.on('error', (error) => (done ? undefined : reject(error)));
  });
}
