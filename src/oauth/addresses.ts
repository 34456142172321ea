import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/** Addresses a metadata document may never be fetched from: private, loopback, link-local and other special-use ranges. */
const SPECIAL = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  SPECIAL.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  SPECIAL.addSubnet(net, prefix, 'ipv6');

function isSpecialUseAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return SPECIAL.check(address, 'ipv4');
  if (family !== 6) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return SPECIAL.check(mapped[1]!, 'ipv4');
  return SPECIAL.check(address, 'ipv6');
}

/**
 * Whether a host name resolves only to public addresses. Checked before a metadata
 * document is fetched (a clear refusal, nothing sent); the library checks the address
 * it actually connects to as well, which a DNS answer that changes cannot slip past.
 */
export async function resolvesPublicly(hostname: string): Promise<boolean> {
  const bare = hostname.replace(/^\[|\]$/g, '');
  if (isIP(bare)) return !isSpecialUseAddress(bare);
  if (bare === 'localhost' || bare.endsWith('.localhost')) return false;
  try {
    const all = await lookup(bare, { all: true, verbatim: true });
    return all.length > 0 && all.every((a) => !isSpecialUseAddress(a.address));
  } catch {
    return false;
  }
}
