// The poison step: messages no consumer can read, written to topics the proof's cluster consumes,
// under load. Three kinds per topic: bytes that are not the registry's wire format, the wire
// format with a schema id the registry never gave, and a known schema's id with a body that is
// not JSON. Each consumer must set such a message aside (its dead-letter topic) and read on: the
// traffic's webhooks and callbacks still arrive, which the run's checks prove.
import { randomBytes } from 'node:crypto';
import { kafka } from './provider-events.mjs';

const frame = (schemaId, payload) => {
  const head = Buffer.alloc(5);
  head.writeUInt32BE(schemaId, 1);
  return Buffer.concat([head, payload]);
};

/** Writes the poison to each of `topics`; answers how many messages were written. */
export async function writePoison(stackEnv, topics, tag) {
  const producer = kafka(stackEnv).producer({ allowAutoTopicCreation: false });
  await producer.connect();
  try {
    const messages = (topic) =>
      [randomBytes(64), frame(2_000_000_000, Buffer.from('{"x":1}')), frame(1, Buffer.from('{not json'))].map(
        (value, i) => ({
          key: `proof-${tag}-poison-${topic}-${i}`,
          value,
          headers: { 'event-id': `proof-${tag}-poison-${topic}-${i}`, 'event-type': 'proof.poison' },
        }),
      );
    await producer.sendBatch({
      topicMessages: topics.map((topic) => ({ topic, messages: messages(topic) })),
      acks: -1,
    });
    return topics.length * 3;
  } finally {
    await producer.disconnect();
  }
}
