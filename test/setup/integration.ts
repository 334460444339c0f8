// Integration tests talk to real servers: give each test a bounded, generous budget. Every wait
// inside a test has its own, shorter timeout that says what it was waiting for.
jest.setTimeout(60_000);
