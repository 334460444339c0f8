import { readFileSync } from 'node:fs';
import { DEFAULT_DECLARATION } from '../options';
import { DeclarationError, loadDeclaration, validateDeclaration } from './declaration';

const valid = (): Record<string, unknown> => JSON.parse(readFileSync(DEFAULT_DECLARATION, 'utf8'));

describe('the declaration', () => {
  it('accepts the kit’s own declaration', () => {
    expect(loadDeclaration(DEFAULT_DECLARATION).provider).toContain('provider-delivery');
  });

  it('names every problem: missing fields, unknown capabilities, statuses outside the vocabulary', () => {
    const declaration = valid();
    delete declaration.provider;
    (declaration.capabilities as Record<string, unknown>).supportsTeleport = true;
    (declaration.transitions as Record<string, unknown>).picked_up = ['en_route'];
    (declaration.cancellation as Record<string, unknown>).nowhere = { before_pickup: 'maybe' };
    (declaration.sandbox as Record<string, unknown>).lifecycleTimeoutSeconds = 0;
    let problems: string[] = [];
    try {
      validateDeclaration(declaration);
    } catch (error) {
      problems = (error as DeclarationError).problems;
    }
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringContaining('provider must be'),
        expect.stringContaining('"supportsTeleport" is not one of'),
        'transitions.picked_up: "en_route" is not a status of the vocabulary',
        'cancellation: "nowhere" is not a status of the vocabulary',
        'cancellation.nowhere.before_pickup must be "confirmed" or "refused"',
        'sandbox.lifecycleTimeoutSeconds must be a number above 0',
      ]),
    );
  });

  it('refuses a file that is not JSON, and a contract revision the kit does not certify', () => {
    expect(() => loadDeclaration(__filename)).toThrow(/is not JSON/);
    expect(() => validateDeclaration({ ...valid(), contract: { version: '1.0.0', revision: '2025-01-01' } })).toThrow(
      /this kit certifies 1.1.0/,
    );
  });
});
