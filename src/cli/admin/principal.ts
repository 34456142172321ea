import { makeLoginLink } from '../../admin/console-links.ts';
import { addPrincipal, requirePrincipal, setOperatorRole, setStatus } from '../../admin/principals.ts';
import { defaultPublicOrigin, parsePublicUrl, PublicOriginError } from '../../core/public-origin.ts';
import { isPrincipalStatus } from '../../core/tiers.ts';
import type { PrincipalRecord } from '../../store/contract.ts';
import { UsageError } from '../io.ts';
import { printJson } from '../common.ts';
import { positional, str, type AdminCommand } from './command.ts';
import { forHumans as plain } from '../../untrusted/index.ts';

const LIST_LIMIT = 100;
const MAX_LIST_LIMIT = 10_000;

function listLimit(raw: string | undefined): number {
  if (raw === undefined) return LIST_LIMIT;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > MAX_LIST_LIMIT)
    throw new UsageError(`--limit is a whole number from 1 to ${MAX_LIST_LIMIT}; got "${raw}"`);
  return n;
}

function summary(p: PrincipalRecord) {
  return {
    id: p.id,
    handle: p.handle,
    status: p.status,
    operator: p.operator,
    accepts_questions: p.acceptsQuestions,
    display_name: plain(p.displayName),
    created_at: p.createdAt,
  };
}

const statusCommand = (status: 'member' | 'suspended', verb: string, what: string): AdminCommand => ({
  options: {},
  usage: `${verb} HANDLE`,
  summary: what,
  async run(deps, args, io) {
    const p = await setStatus(deps.store, positional(args, 0, 'HANDLE'), status);
    if (args.values['json']) printJson(io, summary(p));
    else io.stdout(`${p.handle} is now ${p.status}.\n`);
    return 0;
  },
});

export const principalCommands: Record<string, AdminCommand> = {
  add: {
    options: { status: { type: 'string' }, name: { type: 'string' }, operator: { type: 'boolean' } },
    usage: 'add HANDLE [--status candidate|member] [--name NAME] [--operator]',
    summary:
      'add a principal (a candidate unless told otherwise) with the default mandate; --operator lets them admit and suspend in the console',
    async run(deps, args, io) {
      const status = str(args.values, 'status') ?? 'candidate';
      if (status !== 'candidate' && status !== 'member')
        throw new UsageError('--status is candidate or member');
      const name = str(args.values, 'name');
      const p = await addPrincipal(deps.store, positional(args, 0, 'HANDLE'), {
        status,
        ...(name ? { name } : {}),
        operator: args.values['operator'] === true,
      });
      if (args.values['json']) printJson(io, summary(p));
      else
        io.stdout(
          `Added ${p.status} ${p.handle} (${p.id})${p.operator ? ', an operator,' : ''} with the default mandate.\n`,
        );
      return 0;
    },
  },
  admit: statusCommand(
    'member',
    'admit',
    "admit a candidate as a member (the club's act, done by a person; tokens keep their scopes)",
  ),
  suspend: statusCommand(
    'suspended',
    'suspend',
    'suspend a principal: every one of their tokens is refused at once, and their OAuth connections end for good',
  ),
  reinstate: statusCommand('member', 'reinstate', 'reinstate a suspended principal as a member'),
  'login-link': {
    options: { expires: { type: 'string' }, 'public-url': { type: 'string' } },
    usage: 'login-link HANDLE [--expires 15m] [--public-url URL]',
    summary: 'a one-time console sign-in link: the URL alone on stdout (LINK=$(…) works)',
    async run(deps, args, io) {
      const expires = str(args.values, 'expires');
      // The same public origin `warden serve` defaults to, so a link made here opens where passkeys work.
      const given = str(args.values, 'public-url') ?? io.env['WARDEN_PUBLIC_URL'];
      let publicUrl = defaultPublicOrigin();
      if (given !== undefined) {
        try {
          publicUrl = parsePublicUrl(given);
        } catch (err) {
          if (err instanceof PublicOriginError) throw new UsageError(`--public-url: ${err.message}`);
          throw err;
        }
      }
      const link = await makeLoginLink(deps.store, positional(args, 0, 'HANDLE'), {
        publicUrl,
        ...(expires ? { expires } : {}),
      });
      if (args.values['json'])
        printJson(io, { url: link.url, handle: link.handle, expires_at: link.expiresAt });
      else {
        // The URL alone on stdout (LINK=$(…) works); what it is for on stderr.
        io.stdout(`${link.url}\n`);
        io.stderr(`One-time console sign-in for ${link.handle}; works once, until ${link.expiresAt}.\n`);
      }
      return 0;
    },
  },
  list: {
    options: {
      status: { type: 'string' },
      query: { type: 'string' },
      limit: { type: 'string' },
      after: { type: 'string' },
    },
    usage: `list [--status candidate|member|suspended] [--query WORDS] [--limit ${LIST_LIMIT}] [--after HANDLE]`,
    summary: `principals by handle, ${LIST_LIMIT} at a time (--after continues; --query matches words of handle, name, headline)`,
    async run(deps, args, io) {
      const status = str(args.values, 'status');
      if (status !== undefined && !isPrincipalStatus(status))
        throw new UsageError('--status is candidate, member or suspended');
      const limit = listLimit(str(args.values, 'limit'));
      const query = str(args.values, 'query');
      const after = str(args.values, 'after');
      const page = await deps.store.pagePrincipals(
        { ...(status ? { status } : {}), ...(query !== undefined ? { query } : {}) },
        { limit: limit + 1, ...(after !== undefined ? { after } : {}) },
      );
      const shown = page.rows.slice(0, limit);
      const last = shown[shown.length - 1];
      const next = page.rows.length > limit ? last?.handle : page.walkedTo;
      if (args.values['json']) printJson(io, shown.map(summary));
      else if (shown.length === 0 && next === undefined)
        io.stdout(after ? 'No more principals.\n' : 'No principals.\n');
      else
        for (const p of shown)
          io.stdout(
            `${p.handle.padEnd(20)} ${p.status.padEnd(10)} ${p.acceptsQuestions ? 'accepts questions' : ''}\n`,
          );
      // Where to go on, on stderr: stdout stays the list (or the JSON array) alone.
      if (next !== undefined) io.stderr(`More: add --after ${next} to continue.\n`);
      return 0;
    },
  },
  show: {
    options: {},
    usage: 'show HANDLE',
    summary: 'one principal: profile, evidence, reviews, tokens',
    async run(deps, args, io) {
      const p = await requirePrincipal(deps.store, positional(args, 0, 'HANDLE'));
      const reviews = await deps.store.listReviews({ candidateId: p.id });
      const evidence = await deps.store.listEvidence(p.id);
      const tokens = await deps.store.listTokens(p.id);
      const view = {
        ...summary(p),
        headline: plain(p.headline),
        bio: plain(p.bio),
        evidence: evidence.map((e) => ({
          id: e.id,
          origin: e.origin,
          claim: plain(e.claim),
          artifact_ref: e.artifactRef ? plain(e.artifactRef) : null,
        })),
        reviews: reviews.map((r) => ({
          by: r.reviewerHandle,
          verdict: r.verdict,
          note: plain(r.note),
          at: r.createdAt,
        })),
        tokens: tokens.map((t) => ({ id: t.id, label: plain(t.label), revoked_at: t.revokedAt })),
      };
      if (args.values['json']) printJson(io, view);
      else {
        io.stdout(`${p.handle} (${p.id}) — ${p.status}${p.acceptsQuestions ? ', accepts questions' : ''}\n`);
        io.stdout(`  name: ${view.display_name}\n  headline: ${view.headline}\n`);
        io.stdout(
          `  evidence: ${evidence.length}   tokens: ${tokens.filter((t) => !t.revokedAt).length} active\n`,
        );
        if (reviews.length) io.stdout('  reviews:\n');
        for (const r of view.reviews) io.stdout(`    ${r.verdict.padEnd(8)} by ${r.by}: ${r.note}\n`);
      }
      return 0;
    },
  },
};

const operatorCommand = (grant: boolean): AdminCommand => ({
  options: {},
  usage: `${grant ? 'grant' : 'revoke'} HANDLE`,
  summary: grant
    ? 'make a principal an operator (the console pages for admission, suspension and sign-in links)'
    : 'take the operator role away from a principal',
  async run(deps, args, io) {
    const p = await setOperatorRole(deps.store, positional(args, 0, 'HANDLE'), grant);
    if (args.values['json']) printJson(io, summary(p));
    else io.stdout(`${p.handle} ${grant ? 'is now an operator' : 'is no longer an operator'}.\n`);
    return 0;
  },
});

export const operatorCommands: Record<string, AdminCommand> = {
  grant: operatorCommand(true),
  revoke: operatorCommand(false),
};
