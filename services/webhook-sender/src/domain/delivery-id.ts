import { createHash } from 'node:crypto';

/**
 * The delivery id of an event for an endpoint's owner (an installation, or a platform account): the
 * same on every redelivery of the event by Kafka.
 */
export function deliveryIdOf(eventId: string, ownerId: string): string {
  const h = createHash('sha256').update(`${eventId}\n${ownerId}`).digest('hex');
  // Shaped as a UUID (version 8, "custom"), so it reads like every other id.
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
