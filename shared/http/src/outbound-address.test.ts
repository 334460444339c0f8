import { isInternalAddress, isLoopbackHost } from './outbound-address';

describe('outbound address rules', () => {
  it.each([
    ['10.0.0.1', true],
    ['172.16.0.1', true],
    ['172.31.255.255', true],
    ['172.32.0.1', false],
    ['192.168.1.1', true],
    ['100.64.0.1', true],
    ['127.0.0.1', true],
    ['0.0.0.0', true],
    ['224.0.0.1', true],
    ['198.18.0.1', true],
    ['93.184.216.34', false],
    ['::1', true],
    ['::ffff:10.0.0.1', true],
    ['::ffff:a00:1', true],
    ['::ffff:808:808', false],
    ['64:ff9b::a9fe:a9fe', true],
    ['::7f00:1', true],
    ['fe80::1', true],
    ['2606:4700::1111', false],
  ])('%s is internal: %s', (address, internal) => {
    expect(isInternalAddress(address)).toBe(internal);
  });

  it.each([
    ['localhost', true],
    ['api.localhost', true],
    ['::1', true],
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['example.com', false],
    ['localhost.example.com', false],
    ['10.0.0.1', false],
  ])('%s is loopback: %s', (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback);
  });
});
