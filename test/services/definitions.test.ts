import { join } from 'node:path';
import type { ServiceDefinition } from '@marketplace/runtime';
import { loadTopicCatalog } from '@marketplace/events';
import { SERVICES } from './services';

// Each service's definition agrees with scripts/services.json and with the topic catalog.
describe.each(SERVICES)('%s definition', (name, port) => {
  const module = require(join('..', '..', 'services', name, 'src', 'service')) as Record<
    string,
    ServiceDefinition<Record<string, never>>
  >;
  const definition = Object.values(module)[0]!;

  it('has its name and default port', () => {
    expect(definition).toMatchObject({ name, defaultPort: port });
  });

  it('uses only topics declared in schemas/topics.json', () => {
    const catalog = loadTopicCatalog();
    for (const topic of definition.topics ?? []) expect(() => catalog.get(topic)).not.toThrow();
  });
});
