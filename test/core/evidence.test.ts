// The artifact reference check on its own: a table of references, each refused with its reason
// or stored in the parser's form. No club is started: these are pure functions.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkArtifact, parseArtifactRef, privateHost } from '../../src/core/evidence.ts';

const SHA = '9fceb02d0ae598e95dc970b74767f19372d61af8';

/** [origin, reference, what the reason must say]: each is refused as artifact_ref_malformed. */
const REFUSED: readonly [origin: 'commit' | 'document' | 'calendar', ref: string, why: RegExp][] = [
  // Plain http, wherever the host is.
  ['document', 'http://docs.example.org/design/42', /plain http:.*use https:/],
  ['commit', `http://git.example.org/dora/app@${SHA}`, /plain http:/],
  ['calendar', 'http://cal.example.org/event/77', /plain http:/],
  // Loopback, in every spelling the URL parser reads as 127.0.0.1.
  ['document', 'http://127.0.0.1:8787/admin', /127\.0\.0\.1 is a loopback address/],
  ['document', 'https://127.0.0.1/x', /loopback/],
  ['document', 'https://127.8.9.10/x', /loopback/],
  ['document', 'http://2130706433/', /127\.0\.0\.1 is a loopback address/],
  ['document', 'https://0x7f000001/', /127\.0\.0\.1 is a loopback/],
  ['document', 'https://0x7f.1/', /127\.0\.0\.1 is a loopback/],
  ['document', 'https://0177.0.0.1/', /127\.0\.0\.1 is a loopback/],
  ['document', 'https://127.1/', /127\.0\.0\.1 is a loopback/],
  ['document', 'https://127.0.0.1./', /loopback/],
  ['document', 'https://%31%32%37.0.0.1/', /loopback/],
  ['document', 'https://[::1]/', /\[::1\] is a loopback address/],
  ['document', 'https://[0:0:0:0:0:0:0:1]/', /\[::1\] is a loopback/],
  // localhost and its subdomains, in any case, with the root dot.
  ['document', 'http://localhost/', /localhost, which points back/],
  ['document', 'https://localhost:3000/x', /localhost/],
  ['document', 'https://LOCALHOST./x', /localhost/],
  ['document', 'https://app.localhost/x', /app\.localhost is localhost/],
  // Private networks.
  ['document', 'https://10.0.0.1/', /10\.0\.0\.1 is a private address \(RFC 1918\)/],
  ['document', 'https://172.16.0.5/', /private address/],
  ['document', 'https://172.31.255.255/', /private address/],
  ['document', 'https://192.168.1.1/', /private address/],
  ['document', 'https://167772161/', /10\.0\.0\.1 is a private address/],
  ['document', 'https://100.100.100.200/latest', /carrier-grade NAT/],
  ['document', 'https://[fd12:3456::1]/', /unique-local address \(fc00::\/7\)/],
  ['document', 'https://[fc00::1]/', /unique-local/],
  ['document', 'https://[fec0::1]/', /site-local/],
  // Link-local and the cloud metadata endpoints.
  ['document', 'http://169.254.169.254/latest/meta-data/', /169\.254\.169\.254 is a cloud metadata address/],
  ['document', 'https://169.254.169.254/', /metadata/],
  ['document', 'https://2852039166/', /169\.254\.169\.254 is a cloud metadata/],
  ['document', 'https://169.254.1.1/', /link-local address/],
  ['document', 'https://[fe80::1]/', /link-local/],
  ['document', 'https://[fd00:ec2::254]/latest', /cloud metadata/],
  ['document', 'https://metadata.google.internal/computeMetadata/v1/', /cloud metadata/],
  ['document', 'https://metadata.google.internal./x', /cloud metadata/],
  // The unspecified address.
  ['document', 'https://0.0.0.0:8080/', /0\.0\.0\.0 is the unspecified address/],
  ['document', 'https://0/', /unspecified/],
  ['document', 'https://[::]/', /\[::\] is the unspecified address/],
  // IPv4 inside IPv6: mapped, compatible and NAT64 forms name the IPv4 address they carry.
  ['document', 'https://[::ffff:127.0.0.1]/', /IPv6 form of 127\.0\.0\.1, a loopback/],
  ['document', 'https://[::ffff:7f00:1]/', /IPv6 form of 127\.0\.0\.1/],
  ['document', 'https://[::ffff:169.254.169.254]/', /IPv6 form of 169\.254\.169\.254, a cloud metadata/],
  ['document', 'https://[::ffff:10.0.0.1]/', /IPv6 form of 10\.0\.0\.1, a private/],
  ['document', 'https://[::ffff:0.0.0.0]/', /IPv6 form of 0\.0\.0\.0, the unspecified/],
  ['document', 'https://[::127.0.0.1]/', /IPv6 form of 127\.0\.0\.1/],
  ['document', 'https://[64:ff9b::a9fe:a9fe]/', /IPv6 form of 169\.254\.169\.254/],
  // Names only a private network resolves.
  ['document', 'https://intranet/wiki', /a name without a domain/],
  ['document', 'https://printer.local/', /under \.local/],
  ['document', 'https://build.internal/', /under \.internal/],
  ['document', 'https://nas.home.arpa/', /under \.home\.arpa/],
  // Multicast and reserved.
  ['document', 'https://224.0.0.1/', /multicast/],
  ['document', 'https://255.255.255.255/', /reserved/],
  ['document', 'https://[ff02::1]/', /multicast/],
  // Every URL-bearing origin is checked alike: commits, calendars (webcal: included).
  ['commit', `https://127.0.0.1/dora/app@${SHA}`, /loopback/],
  ['commit', `https://10.0.0.1/dora/app/commit/${SHA}`, /private address/],
  ['calendar', 'https://169.254.169.254/event', /metadata/],
  ['calendar', 'webcal://127.0.0.1/cal.ics', /127\.0\.0\.1 is a loopback/],
  ['calendar', 'webcal://2130706433/cal.ics', /127\.0\.0\.1 is a loopback/],
  ['calendar', 'webcals://LocalHost/cal.ics', /localhost/],
  ['calendar', 'webcal://[::ffff:a9fe:a9fe]/cal.ics', /169\.254\.169\.254/],
  ['calendar', 'webcal://127%2E0%2E0%2E1/cal.ics', /loopback/],
];

/** References that pass, with their stored form. */
const ACCEPTED: readonly [origin: 'commit' | 'document' | 'calendar', ref: string, stored: string][] = [
  ['document', 'https://docs.example.org/design/42', 'https://docs.example.org/design/42'],
  ['document', 'https://8.8.8.8/x', 'https://8.8.8.8/x'],
  ['document', 'https://[2001:4860:4860::8888]/', 'https://[2001:4860:4860::8888]/'],
  ['document', 'https://[::ffff:8.8.8.8]/', 'https://[::ffff:808:808]/'],
  ['document', 'https://172.32.0.1/', 'https://172.32.0.1/'],
  ['document', 'https://localhost.example.org/', 'https://localhost.example.org/'],
  ['document', 'https://internal.example.org/', 'https://internal.example.org/'],
  ['commit', `https://git.example.org/dora/app@${SHA}`, `https://git.example.org/dora/app@${SHA}`],
  ['calendar', 'webcal://cal.example.org/event/77', 'webcal://cal.example.org/event/77'],
  ['calendar', 'webcals://cal.example.org/e', 'webcals://cal.example.org/e'],
  // A UID is an identifier, never opened: its domain is checked for form only.
  [
    'calendar',
    '040000008200E00074C5B7101A82E008@example.org',
    '040000008200E00074C5B7101A82E008@example.org',
  ],
];

describe('artifact references', () => {
  for (const [origin, ref, why] of REFUSED) {
    it(`refuses ${origin} ${ref}`, () => {
      const parsed = parseArtifactRef(origin, ref);
      assert.equal(parsed.ok, false);
      const check = checkArtifact(origin, ref);
      assert.ok(!check.ok);
      assert.equal(check.refusal.code, 'artifact_ref_malformed');
      assert.match(check.refusal.reason, why, check.refusal.reason);
      assert.match(check.refusal.reason, /points at nothing anyone could check/);
      assert.match(check.refusal.next, /Send artifact_ref as .*https:/);
    });
  }

  for (const [origin, ref, stored] of ACCEPTED) {
    it(`accepts ${origin} ${ref}`, () => {
      assert.deepEqual(checkArtifact(origin, ref), { ok: true, ref: stored });
    });
  }

  it('names a public host as public, and says why for each kind of private one', () => {
    assert.equal(privateHost('docs.example.org'), null);
    assert.equal(privateHost('93.184.216.34'), null);
    assert.equal(privateHost('[2606:2800:220:1::]'), null);
    assert.match(privateHost('[::1]')!, /^its host \[::1\] is a loopback address/);
    assert.match(privateHost('a b')!, /is not a host name/);
  });

  it('the next step names the public https form', () => {
    const r = checkArtifact('document', 'http://localhost/');
    assert.ok(!r.ok);
    assert.match(r.refusal.next, /an https: URL of the document on a public host/);
  });
});
