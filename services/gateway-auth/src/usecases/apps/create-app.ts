import { randomUUID } from 'node:crypto';
import { conflict } from '@marketplace/errors';
import { isDuplicateKeyError } from '@marketplace/store';
import type { AppInput } from '@marketplace/contracts';
import type { App } from '../../domain/entities';
import type { GatewayContext } from '../context';

export async function createApp(ctx: GatewayContext, input: AppInput): Promise<App> {
  const doc: App = {
    _id: randomUUID(),
    slug: input.slug,
    name: input.name,
    description: input.description ?? null,
    createdAt: ctx.now(),
  };
  try {
    await ctx.store.apps.insert(doc);
  } catch (error) {
    if (isDuplicateKeyError(error))
      throw conflict('marketplace.app.slug_taken', 'An app with this slug already exists.');
    throw error;
  }
  return doc;
}
