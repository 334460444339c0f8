import type { EventTypeOf, TopicName, TopicPayloads } from '@marketplace/contracts';

/**
 * What the code knows of each topic at compile time: the type of its values and of its event-type
 * header. The consumer, the publisher and the outbox are generic over such a map, so that a
 * handler receives, and a producer must build, the type of the topic at hand.
 */
export interface TopicContract<D = unknown, E extends string = string> {
  data: D;
  type: E;
}

/** Topic name → what it carries. */
export type TopicMap = { [topic: string]: TopicContract };

/** The topic names of a map. */
export type TopicOf<M extends TopicMap> = keyof M & string;

/**
 * The platform's topics (schemas/topics.json), with the types that `npm run contracts:generate`
 * makes of their schemas. The default of every generic in this package: the topic catalog the
 * services load (`loadTopicCatalog()`) is the one these types were generated from.
 */
export type PlatformTopics = { [T in TopicName]: TopicContract<TopicPayloads[T], EventTypeOf<T>> };

/** Topics known only at run time (a test's own catalog): values are `unknown`, types any string. */
export type AnyTopics = Record<string, TopicContract>;
