// The consent page and what approving it writes: the client's words shown as a person
// should read them, exactly the offered scopes that were chosen granted (the record and
// the client's tokens agree), and the grant and its connection written together or not
// at all.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startConsoleClub, type ConsoleClub } from '../helpers/console.ts';
import {
  Browserless,
  CALLBACK,
  answer,
  authorizeUrl,
  exchange,
  listWith,
  pkce,
  register,
  signIn,
  start,
} from '../helpers/oauth.ts';
import type { Store } from '../../src/store/contract.ts';
import type { SqlExecutor } from '../../src/store/sql.ts';

function sqlOf(club: ConsoleClub): SqlExecutor {
  return (club.store as unknown as { sql: SqlExecutor }).sql;
}

/** Every OAuth connection row, oldest first. */
async function connections(club: ConsoleClub) {
  const alice = (await club.store.getPrincipalByHandle('alice'))!;
  return (await club.store.listTokens(alice.id)).filter((t) => t.origin === 'oauth');
}

async function grants(club: ConsoleClub): Promise<number> {
  const r = await sqlOf(club).get(`SELECT COUNT(*) AS n FROM oauth_records WHERE model = 'Grant'`);
  return Number(r?.['n'] ?? 0);
}

void describe('the consent page', () => {
  let club: ConsoleClub;
  let clientId: string;

  before(async () => {
    club = await startConsoleClub({}, { oauth: {} });
    await club.add('alice', 'member', { name: 'Alice' });
  });
  after(async () => club?.close());

  beforeEach(async () => {
    await sqlOf(club).run(`DELETE FROM oauth_records`);
    await sqlOf(club).run(`DELETE FROM tokens WHERE origin = 'oauth'`);
    const r = await register(club.base, CALLBACK);
    assert.equal(r.status, 201);
    clientId = String(r.body['client_id']);
  });

  void it('asks least access first: nothing ticked, what it may see apart from what it may do, the risky ones marked', async () => {
    const b = await signIn(club);
    const { res } = await start(
      b,
      authorizeUrl(club, clientId, pkce(), { scope: 'inbox mandate:read consult' }),
    );
    const page = await res.text();
    assert.doesNotMatch(page, /name="scope" value="[^"]+"\s+checked/, 'nothing is ticked');
    const see = page.slice(page.indexOf('<legend>Let it see</legend>'), page.indexOf('<legend>Let it act'));
    const act = page.slice(page.indexOf('<legend>Let it act in your name</legend>'));
    assert.match(see, /value="mandate:read"/);
    assert.doesNotMatch(see, /value="(?:inbox|consult)"/);
    assert.match(act, /value="inbox"[\s\S]*acts in your name[\s\S]*value="consult"[\s\S]*acts in your name/);
    assert.match(page, /<select id="lasts" name="lasts">/);
  });

  void it('a connection lasts as long as the person chose, and is turned away after it', async () => {
    const p = pkce();
    const b = await signIn(club);
    const { res, url } = await start(b, authorizeUrl(club, clientId, p));
    const html = await res.text();
    const csrf = /name="_csrf" value="([^"]+)"/.exec(html)![1]!;
    const form = new URLSearchParams({ _csrf: csrf, intent: 'approve', scope: 'inbox', lasts: '7d' });
    const { url: back } = await b.follow(await b.post(url, form));
    const code = new URL(back).searchParams.get('code')!;
    const [row] = await connections(club);
    const days = (Date.parse(row!.expiresAt!) - Date.now()) / 86_400_000;
    assert.ok(days > 6.9 && days <= 7, `expires in ${days} days`);
    const tokens = await exchange(club, clientId, code, p.verifier);
    const access = String(tokens.body['access_token']);
    assert.equal((await listWith(club.server.mcpUrl, access)).status, 200);
    // A week later: the connection has lapsed, and its access token with it.
    await sqlOf(club).run(`UPDATE tokens SET expires_at = ? WHERE id = ?`, [
      new Date(Date.now() - 1000).toISOString(),
      row!.id,
    ]);
    assert.equal((await listWith(club.server.mcpUrl, access)).status, 401);
  });

  void it('"until I disconnect it" is a choice, and an unknown length is the default of 30 days', async () => {
    for (const [lasts, days] of [
      ['never', null],
      ['forever-and-ever', 30],
    ] as const) {
      const b = await signIn(club);
      const { res, url } = await start(b, authorizeUrl(club, clientId, pkce()));
      const csrf = /name="_csrf" value="([^"]+)"/.exec(await res.text())![1]!;
      await b.post(url, new URLSearchParams({ _csrf: csrf, intent: 'approve', scope: 'inbox', lasts }));
      const row = (await connections(club)).at(-1)!;
      if (days === null) assert.equal(row.expiresAt, null);
      else assert.equal(Math.round((Date.parse(row.expiresAt!) - Date.now()) / 86_400_000), days);
    }
  });

  void it('asked only for what no agent is given: the page says nothing can be granted and why, and Allow grants nothing', async () => {
    const b = await signIn(club);
    const { res, url } = await start(b, authorizeUrl(club, clientId, pkce(), { scope: 'mandate:write' }));
    const page = await res.text();
    assert.match(page, /Nothing can be granted/);
    assert.match(page, /yours alone, never given to an application or an agent/);
    assert.doesNotMatch(page, /value="approve"/, 'nothing to allow');
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page)![1]!;
    const forced = await b.post(
      url,
      new URLSearchParams({ _csrf: csrf, intent: 'approve', scope: 'mandate:write' }),
    );
    assert.equal(forced.status, 200);
    assert.match(await forced.text(), /Nothing can be granted/);
    assert.deepEqual(await connections(club), [], 'no connection written');
    assert.equal(await grants(club), 0, 'no grant written');
  });

  void it("shows a client's name with its bidi and invisible characters made visible, and escaped", async () => {
    // Reads "Club Desk (invoice.pdf)" with the override, while the characters say otherwise.
    const name = 'Club Desk (\u202Efdp.exe)\u200B<b>';
    const r = await register(club.base, CALLBACK, name);
    assert.equal(r.status, 201);
    const b = await signIn(club);
    const { res } = await start(b, authorizeUrl(club, String(r.body['client_id']), pkce()));
    assert.equal(res.status, 200);
    const page = await res.text();
    assert.ok(!page.includes('\u202E'), 'no right-to-left override reaches the page');
    assert.ok(!page.includes('\u200B'), 'no zero-width space either');
    assert.match(page, /<h2 id="client">Club Desk \(\[U\+202E\]fdp\.exe\)\[U\+200B\]&lt;b&gt;<\/h2>/);
    assert.match(page, /<title>Connect Club Desk \(\[U\+202E\]fdp\.exe\)\[U\+200B\]&lt;b&gt;\?/);
    assert.ok(!page.includes('<b>'), 'and it is still escaped');
  });

  void it('the same before signing in', async () => {
    const r = await register(club.base, CALLBACK, 'Agent\u202Etxt.exe');
    const { res } = await start(
      new Browserless(club.base),
      authorizeUrl(club, String(r.body['client_id']), pkce()),
    );
    assert.equal(res.status, 200);
    const page = await res.text();
    assert.ok(!page.includes('\u202E'));
    assert.match(page, /Agent\[U\+202E\]txt\.exe/);
  });

  void it('an edited form adding a scope the page never offered: granted only what was offered, and the record agrees with the token', async () => {
    const p = pkce();
    const b = await signIn(club);
    const { res, url } = await start(b, authorizeUrl(club, clientId, p, { scope: 'inbox offline_access' }));
    const page = await res.text();
    assert.ok(!page.includes('value="profile:write"'), 'the page does not offer profile:write');
    const back = await answer(b, url, page, 'approve', ['inbox', 'profile:write']);
    const tokens = await exchange(club, clientId, back.searchParams.get('code')!, p.verifier);
    assert.equal(tokens.status, 200);
    assert.equal(
      tokens.body['scope']
        ?.split(' ')
        .filter((s) => s !== 'offline_access')
        .join(' '),
      'inbox',
    );
    const [row] = await connections(club);
    assert.deepEqual(row?.scopes, ['inbox'], 'the connection holds what the token holds');
  });

  void it('approving a client again ends its earlier connection: one live connection per client', async () => {
    for (let i = 0; i < 2; i++) {
      const p = pkce();
      const b = await signIn(club);
      const { res, url } = await start(b, authorizeUrl(club, clientId, p));
      await answer(b, url, await res.text(), 'approve', ['inbox']);
    }
    const rows = await connections(club);
    assert.equal(rows.length, 2);
    assert.ok(rows[0]!.revokedAt, 'the earlier connection is revoked');
    assert.equal(rows[1]!.revokedAt, null);
    assert.equal(await grants(club), 1, "the earlier connection's grant went with it");
  });

  void it('when writing the connection fails, nothing is written: no grant, and the earlier connection stays live', async () => {
    const first = pkce();
    const b1 = await signIn(club);
    const one = await start(b1, authorizeUrl(club, clientId, first));
    await answer(b1, one.url, await one.res.text(), 'approve', ['inbox']);
    assert.equal(await grants(club), 1);

    const store = club.store as Store & Record<string, unknown>;
    const saved = { connect: store.connectOAuthClient, insert: store.insertToken };
    const fail = () => Promise.reject(new Error('the disk is full'));
    store['connectOAuthClient'] = fail;
    store['insertToken'] = fail;
    try {
      const b2 = await signIn(club);
      const two = await start(b2, authorizeUrl(club, clientId, pkce()));
      const page = await two.res.text();
      const csrf = /name="_csrf" value="([^"]+)"/.exec(page)![1]!;
      const form = new URLSearchParams({ _csrf: csrf, intent: 'approve', scope: 'inbox' });
      const res = await b2.post(two.url, form);
      assert.equal(res.status, 500);
      assert.doesNotMatch(await res.text(), /disk is full/, 'the fault is not shown');
    } finally {
      store['connectOAuthClient'] = saved.connect;
      store['insertToken'] = saved.insert;
    }
    const rows = await connections(club);
    assert.equal(rows.length, 1);
    assert.equal(rows[0]!.revokedAt, null, 'the earlier connection is still live');
    assert.equal(await grants(club), 1, 'no second grant was saved');
  });
});
