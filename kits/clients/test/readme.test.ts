import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// Every example of the README is a file of examples/, included verbatim, and every example file is
// in the README: examples.int.test.ts runs each file against the real services, so every example a
// reader copies has run through the client.

const KIT = join(__dirname, '..');
const readme = readFileSync(join(KIT, 'README.md'), 'utf8');
const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
const examples = readdirSync(join(KIT, 'examples'))
  .filter((name) => name.endsWith('.ts'))
  .map((name) => ({ name, text: readFileSync(join(KIT, 'examples', name), 'utf8') }));

describe('the README examples', () => {
  it('has examples', () => {
    expect(examples.length).toBeGreaterThan(0);
    expect(blocks.length).toBeGreaterThan(0);
  });

  it.each(examples.map((e) => [e.name, e.text]))('includes examples/%s verbatim', (_name, text) => {
    expect(blocks).toContain(text);
  });

  it('has no TypeScript block that is not an example file', () => {
    const texts = new Set(examples.map((e) => e.text));
    expect(blocks.filter((block) => !texts.has(block))).toEqual([]);
  });
});
