import { isLocated, type CopiedBranch } from './catalog-copy';

const mitte: CopiedBranch = {
  id: 'branch-1',
  name: 'Mitte',
  isActive: true,
  externalLocationId: null,
  address: { line1: 'Torstrasse 1', line2: null, city: 'Berlin', postalCode: '10119', countryCode: 'DE' },
  coordinates: { latitude: 52.53, longitude: 13.4 },
};

describe('a branch that can be a pickup', () => {
  it('has an address and coordinates', () => {
    expect(isLocated(mitte)).toBe(true);
    expect(isLocated({ ...mitte, coordinates: null })).toBe(false);
    expect(isLocated({ ...mitte, address: null })).toBe(false);
    expect(isLocated({ ...mitte, address: null, coordinates: null })).toBe(false);
  });
});
