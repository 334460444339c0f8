import { routesRequested } from './route-listing';

it('prints the route table only when asked with --routes', () => {
  expect(routesRequested(['node', 'dist/main.js', '--routes'])).toBe(true);
  expect(routesRequested(['node', 'dist/main.js'])).toBe(false);
  expect(routesRequested(['node', 'dist/main.js', '--route'])).toBe(false);
  // The flag of the program, not of node itself (`node --routes main.js` is node's business).
  expect(routesRequested(['--routes', 'dist/main.js'])).toBe(false);
});
