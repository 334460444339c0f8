import { AppError, busy, notFound } from '@marketplace/errors';
import type { ConformanceCertificate } from '@marketplace/contracts';
import type { ConnectionReader } from '../../adapters/dispatch/connections-repository';
import { applyCertificate } from '../../domain/dispatch/certificate';
import type { ProviderConnection } from '../../domain/dispatch/connection';
import type { DeliveryContext } from '../context';

const refused = (code: string, message: string) => new AppError('unprocessable', code, message);

/**
 * The connection's owner (the tenant; the administrator for an offered one) submits the
 * certificate a conformance run wrote: signed by a key this marketplace trusts (else 422
 * `connection.certificate_untrusted`), for this connection's base URL and contract major 1, at most
 * a year old, certifying the core (else 422 `connection.certificate_mismatch`). Every capability
 * it certifies is then enabled by it.
 */
export async function certifyConnection(
  ctx: DeliveryContext,
  owner: ConnectionReader,
  connectionId: string,
  certificate: ConformanceCertificate,
): Promise<ProviderConnection> {
  const verdict = ctx.dispatch.certificates.verify(certificate);
  for (let attempt = 0; attempt < 5; attempt++) {
    const connection = await ctx.store.connections.find(owner, connectionId);
    const mine =
      connection && ('tenantId' in owner ? connection.tenantId === owner.tenantId : connection.tenantId === null);
    if (!connection || !mine) throw notFound();
    if (!verdict.valid)
      throw refused('connection.certificate_untrusted', `The certificate is not accepted: ${verdict.reason}.`);
    const applied = applyCertificate(connection, certificate, ctx.now());
    if ('refused' in applied)
      throw refused('connection.certificate_mismatch', `The certificate does not fit: ${applied.refused}.`);
    const next = { ...applied.next, version: connection.version + 1 };
    if (await ctx.store.connections.replaceIfUnchanged(owner, next)) {
      await ctx.dispatch.events.connection(next._id);
      return next;
    }
  }
  throw busy('The connection is being changed by other requests; try again.');
}
