import { notFound } from '@marketplace/errors';
import type { ConnectionReader } from '../../adapters/dispatch/connections-repository';
import { scorecardOf } from '../../domain/dispatch/scorecard';
import type { DeliveryContext } from '../context';

/** The scorecard of a connection the reader sees (zeros before its first delivery); another tenant's is not found. */
export async function readScorecard(ctx: DeliveryContext, reader: ConnectionReader, connectionId: string) {
  const connection = await ctx.store.connections.find(reader, connectionId);
  if (!connection) throw notFound();
  const counters = (await ctx.store.connectionScores.find(reader, connectionId)) ?? {};
  return { connectionId, ...scorecardOf(counters) };
}
