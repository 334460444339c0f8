import type { Kafka, KafkaMessage } from 'kafkajs';
import { uniqueName } from './wait';

export interface RawTopicReader {
  messages: KafkaMessage[];
  stop(): Promise<void>;
}

/** Reads every message of a topic from the beginning, without decoding, into `messages`. */
export async function readTopic(kafka: Kafka, topic: string): Promise<RawTopicReader> {
  const consumer = kafka.consumer({ groupId: uniqueName('reader') });
  const messages: KafkaMessage[] = [];
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await consumer.run({ eachMessage: async ({ message }) => void messages.push(message) });
  return { messages, stop: () => consumer.disconnect() };
}
