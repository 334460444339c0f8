import type { OutboxRelay } from '@marketplace/outbox';
import type { InstallationEvents } from '../usecases/ports';
import { InstallationsRepository } from './store/installations-repository';

/**
 * The installation events port on the outbox relay: the events a change staged in an installation
 * document (InstallationsRepository.updateWithEvent) go to Kafka right after the write; the
 * relay's sweep publishes whatever this misses.
 */
export function installationEvents(outbox: Pick<OutboxRelay, 'flush'>): InstallationEvents {
  return { publish: (installationId) => outbox.flush(InstallationsRepository.storage.collection, installationId) };
}
