// What an agent may have, as tables: each row one case of the pure rules in core/policy,
// with no club started, so a failing row names the rule that broke.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  MISSING_REASON_TEXT,
  anonymousPermissions,
  computePermissions,
  consentOffer,
  consentedScopes,
  evaluateIssuable,
  evaluateStaleness,
  explainScopes,
  explainTools,
  grantableScopes,
  issuableScopes,
  principalPermissions,
  stepUpScopes,
  toolsSeen,
  whyMissing,
  type AskedUnder,
  type IssueRequest,
  type MissingReason,
  type ToolCatalog,
} from '../../src/core/policy/index.ts';
import { AGENT_SCOPES, SCOPES, type Scope } from '../../src/core/scopes.ts';
import type { PrincipalStatus, Tier } from '../../src/core/tiers.ts';

const ALL = [...AGENT_SCOPES];
const CANDIDATE = ['profile:write', 'evidence:write', 'inbox', 'mandate:read'];

void describe('effective scopes: token ∩ mandate ∩ tier ceiling, never mandate:write', () => {
  const rows: {
    case: string;
    tier: Tier;
    token: string[];
    mandate: string[];
    effective: Scope[];
    missing?: Partial<Record<Scope, MissingReason[]>>;
  }[] = [
    { case: 'anonymous has nothing', tier: 'anonymous', token: ALL, mandate: ALL, effective: [] },
    { case: 'a full member token, full mandate', tier: 'member', token: ALL, mandate: ALL, effective: ALL },
    {
      case: 'a member token within a narrow mandate',
      tier: 'member',
      token: ALL,
      mandate: ['inbox'],
      effective: ['inbox'],
      missing: { consult: ['not_in_mandate'] },
    },
    {
      case: 'a narrow token within a full mandate',
      tier: 'member',
      token: ['consult'],
      mandate: ALL,
      effective: ['consult'],
      missing: { inbox: ['not_in_token'] },
    },
    {
      case: 'a candidate: member scopes are above the tier, whatever token and mandate say',
      tier: 'candidate',
      token: ALL,
      mandate: ALL,
      effective: CANDIDATE as Scope[],
      missing: { consult: ['above_tier'], vouch: ['above_tier'] },
    },
    {
      case: 'every reason at once, most fundamental first',
      tier: 'candidate',
      token: [],
      mandate: [],
      effective: [],
      missing: { vouch: ['above_tier', 'not_in_token', 'not_in_mandate'] },
    },
    {
      case: 'a forged row holding mandate:write gets nothing for it',
      tier: 'member',
      token: ['mandate:write', 'inbox'],
      mandate: ['mandate:write', 'inbox'],
      effective: ['inbox'],
      missing: { 'mandate:write': ['principal_only'] },
    },
    {
      case: 'unknown names in a row are ignored',
      tier: 'member',
      token: ['inbox', 'root', ''],
      mandate: ['inbox', 'root'],
      effective: ['inbox'],
    },
  ];
  for (const r of rows) {
    void it(r.case, () => {
      const p = computePermissions(r.tier, r.token, r.mandate);
      assert.deepEqual(
        SCOPES.filter((s) => p.effective.has(s)),
        r.effective,
      );
      assert.equal(p.grants.length, SCOPES.length, 'every scope is explained');
      for (const [scope, missing] of Object.entries(r.missing ?? {})) {
        assert.deepEqual(p.grants.find((g) => g.scope === scope)?.missing, missing, scope);
      }
      for (const g of p.grants) assert.equal(g.granted, g.missing.length === 0, g.scope);
    });
  }

  void it('anonymous and the principal in person', () => {
    assert.equal(anonymousPermissions().effective.size, 0);
    const member = principalPermissions('member');
    assert.ok(member.effective.has('mandate:write'), 'the principal in person holds mandate:write');
    assert.deepEqual(
      SCOPES.filter((s) => member.effective.has(s)),
      SCOPES,
    );
    const candidate = principalPermissions('candidate');
    assert.ok(!candidate.effective.has('consult'), 'in person, still within the tier');
    assert.ok(candidate.effective.has('mandate:write'));
  });
});

void describe('why missing: one text per reason, joined the same way everywhere', () => {
  void it('every reason has a text', () => {
    const reasons: MissingReason[] = ['principal_only', 'above_tier', 'not_in_token', 'not_in_mandate'];
    for (const r of reasons) assert.ok(MISSING_REASON_TEXT[r].length > 10, r);
  });

  void it('joins reasons in the order given', () => {
    assert.equal(
      whyMissing(['above_tier', 'not_in_mandate']),
      "it is above this caller's tier; the principal's mandate does not grant it",
    );
    assert.equal(whyMissing([]), '');
  });

  void it('explains each scope: null when granted, the joined reasons when not', () => {
    const rows = explainScopes(computePermissions('member', ['inbox'], ['inbox', 'consult']));
    assert.deepEqual(
      rows.find((r) => r.scope === 'inbox'),
      {
        scope: 'inbox',
        granted: true,
        missing: [],
        why: null,
      },
    );
    assert.deepEqual(
      rows.find((r) => r.scope === 'consult'),
      {
        scope: 'consult',
        granted: false,
        missing: ['not_in_token'],
        why: 'the token was not issued with it',
      },
    );
  });

  const catalog: ToolCatalog = {
    all: () => [
      { spec: { name: 'club_info', scope: null } },
      { spec: { name: 'list_questions', scope: 'inbox' } },
      { spec: { name: 'ask_agent', scope: 'consult' } },
      { spec: { name: 'set_mandate', scope: 'mandate:write' } },
    ],
    list: (effective) =>
      catalog
        .all()
        .filter((t) => t.spec.scope === null || effective.has(t.spec.scope))
        .map((t) => ({ name: t.spec.name })),
  };

  void it('explains each tool: visible, or which scope it needs and why that scope is missing', () => {
    const rows = explainTools(catalog, computePermissions('candidate', ['inbox', 'consult'], ALL));
    assert.deepEqual(
      rows.map((r) => [r.name, r.visible, r.why]),
      [
        ['club_info', true, null],
        ['list_questions', true, null],
        ['ask_agent', false, "needs consult, which is not effective: it is above this caller's tier"],
        [
          'set_mandate',
          false,
          'needs mandate:write, which is not effective: only the principal may use it, through the console; no agent token ever carries it',
        ],
      ],
    );
  });

  void it('the tools a token sees today; a suspended principal (no tier) sees none', () => {
    assert.deepEqual(toolsSeen(catalog, 'member', ['inbox'], ALL), ['club_info', 'list_questions']);
    assert.deepEqual(toolsSeen(catalog, 'member', ['inbox', 'consult'], ['consult']), [
      'club_info',
      'ask_agent',
    ]);
    assert.deepEqual(toolsSeen(catalog, null, ALL, ALL), []);
  });
});

void describe('issuable: what an agent token may be issued with', () => {
  void it('issuable scopes per tier, and for after admission', () => {
    assert.deepEqual(issuableScopes('anonymous'), []);
    assert.deepEqual(issuableScopes('candidate'), CANDIDATE);
    assert.deepEqual(issuableScopes('candidate', true), ALL);
    assert.deepEqual(issuableScopes('member'), ALL);
    assert.deepEqual(issuableScopes('member', true), ALL);
    for (const t of ['anonymous', 'candidate', 'member'] as const) {
      assert.ok(!issuableScopes(t, true).includes('mandate:write' as Scope), t);
    }
  });

  const rows: {
    case: string;
    req: Omit<IssueRequest, 'handle'>;
    ok?: Scope[];
    code?: string;
    text?: RegExp;
  }[] = [
    { case: 'a member, every agent scope', req: { status: 'member', scopes: ALL.join(',') }, ok: ALL },
    {
      case: 'a list is read like text, in canonical order, de-duplicated',
      req: { status: 'member', scopes: ['consult', 'inbox', 'consult'] },
      ok: ['inbox', 'consult'],
    },
    { case: 'no scopes at all', req: { status: 'member', scopes: '' }, ok: [] },
    {
      case: 'a suspended principal gets nothing',
      req: { status: 'suspended', scopes: 'inbox' },
      code: 'suspended',
      text: /alice is suspended/,
    },
    {
      case: 'unknown names are refused by name',
      req: { status: 'member', scopes: 'inbox,root,admin' },
      code: 'unknown_scope',
      text: /root, admin/,
    },
    {
      case: 'mandate:write is never issued',
      req: { status: 'member', scopes: 'inbox,mandate:write' },
      code: 'scope_not_grantable',
      text: /never issued to an agent/,
    },
    {
      case: 'a candidate asking member scopes: above the tier, with what to do',
      req: { status: 'candidate', scopes: 'inbox,consult,vouch' },
      code: 'above_tier',
      text: /consult, vouch are above the candidate tier of alice/,
    },
    {
      case: 'a candidate may take them for after admission',
      req: { status: 'candidate', scopes: 'inbox,consult', afterAdmission: true },
      ok: ['inbox', 'consult'],
    },
    {
      case: 'for after admission never opens mandate:write',
      req: { status: 'candidate', scopes: 'mandate:write', afterAdmission: true },
      code: 'scope_not_grantable',
    },
  ];
  for (const r of rows) {
    void it(r.case, () => {
      const v = evaluateIssuable({ handle: 'alice', ...r.req });
      if (r.ok) {
        assert.ok(v.ok, JSON.stringify(v));
        assert.deepEqual(v.scopes, r.ok);
      } else {
        assert.ok(!v.ok);
        assert.equal(v.code, r.code);
        if (r.text) assert.match(v.reason, r.text);
      }
    });
  }

  void it('a candidate refused above the tier is told about after admission; a member is not', () => {
    const v = evaluateIssuable({ handle: 'c', status: 'candidate', scopes: 'vouch' });
    assert.ok(!v.ok && /after admission/.test(v.next));
  });
});

void describe('grantable and the consent offer', () => {
  const grantable: { status: PrincipalStatus; mandate: string[]; want: string[] }[] = [
    { status: 'member', mandate: ALL, want: ALL },
    { status: 'member', mandate: ['inbox', 'consult'], want: ['inbox', 'consult'] },
    { status: 'candidate', mandate: ALL, want: CANDIDATE },
    { status: 'candidate', mandate: ['consult', 'inbox'], want: ['inbox'] },
    { status: 'suspended', mandate: ALL, want: [] },
    { status: 'member', mandate: ['mandate:write', 'inbox'], want: ['inbox'] },
    { status: 'member', mandate: [], want: [] },
  ];
  for (const r of grantable) {
    void it(`grantable: ${r.status} with mandate [${r.mandate.join(' ')}]`, () => {
      assert.deepEqual(grantableScopes(r.status, r.mandate), r.want);
    });
  }

  const stepUps: { case: string; tier: Tier; token: string[]; mandate: string[]; want: Scope[] }[] = [
    {
      case: 'a connection granted less than the mandate allows',
      tier: 'member',
      token: ['inbox'],
      mandate: ['inbox', 'consult'],
      want: ['consult'],
    },
    {
      case: 'granted all the mandate allows',
      tier: 'member',
      token: ['inbox'],
      mandate: ['inbox'],
      want: [],
    },
    {
      case: 'a candidate: member scopes are not grantable',
      tier: 'candidate',
      token: ['inbox'],
      mandate: ALL,
      want: ['profile:write', 'evidence:write', 'mandate:read'],
    },
    { case: 'never mandate:write', tier: 'member', token: [], mandate: ['mandate:write'], want: [] },
  ];
  for (const r of stepUps) {
    void it(`step-up: ${r.case}`, () => {
      assert.deepEqual(stepUpScopes(computePermissions(r.tier, r.token, r.mandate), r.mandate), r.want);
    });
  }

  const offers: {
    case: string;
    requested: string[];
    grantable: Scope[];
    offered: Scope[];
    notOffered: string[];
    staysConnected: boolean;
  }[] = [
    {
      case: 'what was asked and may be granted',
      requested: ['inbox', 'mandate:read', 'offline_access'],
      grantable: ALL,
      offered: ['inbox', 'mandate:read'],
      notOffered: [],
      staysConnected: true,
    },
    {
      case: 'nothing asked: everything grantable is offered',
      requested: [],
      grantable: ['inbox', 'consult'],
      offered: ['inbox', 'consult'],
      notOffered: [],
      staysConnected: false,
    },
    {
      case: 'asked above the tier, outside the mandate, principal-only or unknown: named, not offered',
      requested: ['inbox', 'vouch', 'mandate:write', 'root', 'openid', 'vouch'],
      grantable: CANDIDATE as Scope[],
      offered: ['inbox'],
      notOffered: ['vouch', 'mandate:write', 'root'],
      staysConnected: false,
    },
    {
      case: 'only offline_access asked: no power offered',
      requested: ['offline_access'],
      grantable: ALL,
      offered: [],
      notOffered: [],
      staysConnected: true,
    },
  ];
  for (const r of offers) {
    void it(`offer: ${r.case}`, () => {
      assert.deepEqual(consentOffer(r.requested, r.grantable), {
        offered: r.offered,
        notOffered: r.notOffered,
        staysConnected: r.staysConnected,
      });
    });
  }

  const consents: { case: string; chosen: string[]; offered: Scope[]; want: Scope[] }[] = [
    {
      case: 'the chosen offered scopes',
      chosen: ['inbox'],
      offered: ['inbox', 'mandate:read'],
      want: ['inbox'],
    },
    {
      case: 'an edited form adding a grantable scope the page never offered',
      chosen: ['inbox', 'profile:write'],
      offered: ['inbox', 'mandate:read'],
      want: ['inbox'],
    },
    {
      case: 'mandate:write, unknown names and duplicates dropped; canonical order',
      chosen: ['mandate:read', 'mandate:write', 'root', 'inbox', 'inbox'],
      offered: ['inbox', 'mandate:read'],
      want: ['inbox', 'mandate:read'],
    },
    { case: 'nothing chosen', chosen: [], offered: ['inbox'], want: [] },
  ];
  for (const r of consents) {
    void it(`consent: ${r.case}`, () => {
      assert.deepEqual(consentedScopes(r.chosen, r.offered), r.want);
    });
  }
});

void describe('staleness: does the authority a decision was asked under still hold?', () => {
  const now = new Date('2030-01-01T00:00:00.000Z');
  const live = { id: 'tok_1', scopes: ALL, revokedAt: null, expiresAt: null };
  const base: AskedUnder = { scope: 'consult', tier: 'member', mandateScopes: ALL, token: live, now };
  const rows: { case: string; a: Partial<AskedUnder>; code?: string; text?: RegExp }[] = [
    { case: 'everything holds', a: {} },
    { case: 'asked in person (no token): only the mandate and tier count', a: { token: null } },
    { case: 'a public tool needs no scope', a: { scope: null, mandateScopes: [] } },
    {
      case: 'the token was revoked',
      a: { token: { ...live, revokedAt: '2029-12-31T00:00:00.000Z' } },
      code: 'token_revoked',
      text: /tok_1\) was revoked on 2029-12-31/,
    },
    {
      case: 'the token expired',
      a: { token: { ...live, expiresAt: '2029-12-31T00:00:00.000Z' } },
      code: 'token_expired',
    },
    {
      case: 'the token expires exactly now',
      a: { token: { ...live, expiresAt: now.toISOString() } },
      code: 'token_expired',
    },
    { case: 'the token expires later', a: { token: { ...live, expiresAt: '2030-01-02T00:00:00.000Z' } } },
    { case: 'the tool is gone', a: { scope: undefined }, code: 'tool_gone' },
    {
      case: 'the mandate no longer grants the scope',
      a: { mandateScopes: ['inbox'] },
      code: 'scope_lapsed',
      text: /needs the consult scope, which no longer holds: the principal's mandate does not grant it\./,
    },
    {
      case: 'the principal is a candidate now',
      a: { tier: 'candidate' },
      code: 'scope_lapsed',
      text: /above this caller's tier/,
    },
    {
      case: 'in person, a lapsed mandate still lapses',
      a: { token: null, mandateScopes: [] },
      code: 'scope_lapsed',
    },
    {
      case: 'revocation is reported before a lapsed scope',
      a: { token: { ...live, revokedAt: '2029-12-31T00:00:00.000Z' }, mandateScopes: [] },
      code: 'token_revoked',
    },
  ];
  for (const r of rows) {
    void it(r.case, () => {
      const v = evaluateStaleness({ ...base, ...r.a });
      if (!r.code) assert.deepEqual(v, { stale: false });
      else {
        assert.ok(v.stale);
        assert.equal(v.code, r.code);
        if (r.text) assert.match(v.reason, r.text);
      }
    });
  }
});
