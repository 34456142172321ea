// The server's one public origin: what it is by default, what a configured one may be, and
// which Host headers name it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  defaultPublicOrigin,
  isIpLiteral,
  isPublicHost,
  parsePublicUrl,
  PublicOriginError,
  resolvePublicOrigin,
} from '../../src/core/public-origin.ts';

describe('the public origin', () => {
  const DEFAULTS: [host: string, port: number, origin: string][] = [
    ['127.0.0.1', 8787, 'http://localhost:8787'],
    ['127.0.0.2', 9000, 'http://localhost:9000'],
    ['localhost', 8787, 'http://localhost:8787'],
    ['::1', 8787, 'http://localhost:8787'],
    ['[::1]', 8787, 'http://localhost:8787'],
  ];
  for (const [host, port, origin] of DEFAULTS) {
    it(`listening on ${host}:${port} without a public URL, is ${origin} (a name, where passkeys work)`, () =>
      assert.equal(resolvePublicOrigin({ host, port }), origin));
  }

  for (const host of ['0.0.0.0', '::', '192.168.1.20', 'club.example.org']) {
    it(`listening on ${host} without a public URL stops the start and says what to give`, () =>
      assert.throws(
        () => resolvePublicOrigin({ host, port: 8787 }),
        (e: unknown) =>
          e instanceof PublicOriginError &&
          /serves other machines.*--public-url https:\/\/club\.example\.org.*WARDEN_PUBLIC_URL/.test(
            e.message,
          ),
      ));
  }

  it('a configured public URL wins over the bind, as its origin', () => {
    assert.equal(
      resolvePublicOrigin({ host: '0.0.0.0', port: 8787, publicUrl: 'https://Club.Example.org/' }),
      'https://club.example.org',
    );
    assert.equal(
      resolvePublicOrigin({ host: '127.0.0.1', port: 1, publicUrl: 'http://localhost:8787' }),
      'http://localhost:8787',
    );
  });

  const REFUSED: [url: string, says: RegExp][] = [
    ['club.example.org', /http or https address/],
    ['ftp://club.example.org', /http or https address/],
    ['https://user:pw@club.example.org', /user name or password/],
    ['https://club.example.org/warden', /origin only .*did you mean https:\/\/club\.example\.org\?/],
    ['https://club.example.org/?x=1', /origin only/],
    ['https://club.example.org/#top', /origin only/],
  ];
  for (const [url, says] of REFUSED) {
    it(`refuses ${url} as a public URL, saying why`, () =>
      assert.throws(
        () => parsePublicUrl(url),
        (e: unknown) => e instanceof PublicOriginError && says.test(e.message),
      ));
  }

  it('the default is localhost on 8787, the port warden serve listens on unless told', () =>
    assert.equal(defaultPublicOrigin(), 'http://localhost:8787'));

  it('knows an IP address from a name', () => {
    for (const h of ['127.0.0.1', '192.168.1.20', '[::1]']) assert.equal(isIpLiteral(h), true, h);
    for (const h of ['localhost', 'club.example.org', '127.0.0.1.example'])
      assert.equal(isIpLiteral(h), false, h);
  });

  const HOSTS: [header: string | undefined, origin: string, same: boolean][] = [
    ['localhost:8787', 'http://localhost:8787', true],
    ['LOCALHOST:8787', 'http://localhost:8787', true],
    ['127.0.0.1:8787', 'http://localhost:8787', false],
    ['localhost:8788', 'http://localhost:8787', false],
    ['localhost', 'http://localhost:8787', false],
    ['club.example.org', 'https://club.example.org', true],
    ['club.example.org:443', 'https://club.example.org', true],
    ['club.example.org:8443', 'https://club.example.org', false],
    ['evil.example', 'https://club.example.org', false],
    ['club.example.org@evil.example', 'https://club.example.org', false],
    [undefined, 'http://localhost:8787', false],
    ['', 'http://localhost:8787', false],
  ];
  for (const [header, origin, same] of HOSTS) {
    it(`Host ${JSON.stringify(header)} ${same ? 'names' : 'does not name'} ${origin}`, () =>
      assert.equal(isPublicHost(header, origin), same));
  }
});
