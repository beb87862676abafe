import { describe, expect, it } from 'vitest';
import { judgeAddress } from './address-kind.js';

describe('judgeAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback', '127.0.0.1'],
    ['127.255.0.9', 'loopback', '127.255.0.9'],
    ['::1', 'loopback', '::1'],
    ['0:0:0:0:0:0:0:1', 'loopback', '::1'],
    ['::', 'unspecified', '::'],
    ['0.0.0.0', 'unspecified', '0.0.0.0'],
    ['169.254.169.254', 'link-local', '169.254.169.254'],
    ['FE80::1%eth0', 'link-local', 'fe80::1'],
    ['febf::1', 'link-local', 'febf::1'],
    ['10.1.2.3', 'private', '10.1.2.3'],
    ['172.31.255.255', 'private', '172.31.255.255'],
    ['172.32.0.1', 'public', '172.32.0.1'],
    ['100.64.0.1', 'private', '100.64.0.1'],
    ['fd12::1', 'private', 'fd12::1'],
    ['fc00::1', 'private', 'fc00::1'],
    ['fec0::1', 'private', 'fec0::1'],
    ['64:ff9b:1::a00:1', 'private', '64:ff9b:1::a00:1'],
    ['224.0.0.1', 'reserved', '224.0.0.1'],
    ['255.255.255.255', 'reserved', '255.255.255.255'],
    ['ff02::1', 'reserved', 'ff02::1'],
    ['203.0.113.10', 'public', '203.0.113.10'],
    ['2606:4700::6810:84e5', 'public', '2606:4700::6810:84e5'],
  ])('%s is %s (%s)', (text, kind, address) => {
    expect(judgeAddress(text)).toEqual({ kind, address });
  });

  it.each([
    ['::ffff:127.0.0.1', 'loopback', '127.0.0.1'],
    ['::FFFF:7F00:1', 'loopback', '127.0.0.1'],
    ['0:0:0:0:0:ffff:7f00:1', 'loopback', '127.0.0.1'],
    ['::ffff:0:7f00:1', 'loopback', '127.0.0.1'],
    ['::7f00:1', 'loopback', '127.0.0.1'],
    ['::127.0.0.1', 'loopback', '127.0.0.1'],
    ['64:ff9b::127.0.0.1', 'loopback', '127.0.0.1'],
    ['64:ff9b::a9fe:a9fe', 'link-local', '169.254.169.254'],
    ['2002:a00:1::1', 'private', '10.0.0.1'],
    ['2002:cb00:710a::1', 'public', '203.0.113.10'],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'loopback', '127.0.0.1'], // Teredo: the client address is stored inverted
    ['::ffff:0.0.0.0', 'unspecified', '0.0.0.0'],
    ['::ffff:cb00:710a', 'public', '203.0.113.10'],
  ])('%s carries IPv4 %s (%s)', (text, kind, address) => {
    expect(judgeAddress(text)).toEqual({ kind, address });
  });

  it('is null for what is not an IP address', () => {
    for (const text of ['localhost', 'api.example.com', '0x7f.1', '2130706433', '1.2.3', '[::1]', '', '::ffff:1.2.3.4.5']) {
      expect(judgeAddress(text), text).toBeNull();
    }
  });
});
