import { requirePrincipal } from '../../admin/principals.ts';
import { issueAgentToken, revokeToken } from '../../admin/tokens.ts';
import type { TokenRecord } from '../../store/contract.ts';
import { forHumans as plain } from '../../untrusted/index.ts';
import { printJson } from '../common.ts';
import { UsageError } from '../io.ts';
import { positional, str, type AdminCommand } from './command.ts';

function view(t: TokenRecord) {
  return {
    id: t.id,
    label: plain(t.label),
    scopes: t.scopes,
    created_at: t.createdAt,
    expires_at: t.expiresAt,
    revoked_at: t.revokedAt,
    last_used_at: t.lastUsedAt,
  };
}

export const tokenCommands: Record<string, AdminCommand> = {
  issue: {
    options: {
      scopes: { type: 'string' },
      label: { type: 'string' },
      expires: { type: 'string' },
      'after-admission': { type: 'boolean' },
    },
    usage: 'issue HANDLE --scopes a,b,c [--label L] [--expires 30d|12h|never] [--after-admission]',
    summary:
      "issue an agent token: the token alone on stdout (TOKEN=$(…) works), details and today's tools on stderr; --after-admission: a candidate's token may also carry member scopes, inert until admission",
    async run(deps, args, io) {
      const scopes = str(args.values, 'scopes');
      if (scopes === undefined)
        throw new UsageError('--scopes is required (e.g. --scopes inbox,mandate:read)');
      const label = str(args.values, 'label');
      const expires = str(args.values, 'expires');
      const issued = await issueAgentToken(deps.store, deps.registry, positional(args, 0, 'HANDLE'), {
        scopes,
        ...(label ? { label } : {}),
        ...(expires ? { expires } : {}),
        afterAdmission: args.values['after-admission'] === true,
      });
      if (args.values['json']) {
        printJson(io, { token: issued.token, ...view(issued.record), tools_today: issued.preview });
        return 0;
      }
      // The token alone on stdout, so TOKEN=$(warden admin token issue …) works; the rest on stderr.
      io.stdout(`${issued.token}\n`);
      io.stderr(
        `Issued ${issued.record.id} "${plain(issued.record.label)}" (${issued.record.scopes.join(', ') || 'no scopes'}), ` +
          `expires ${issued.record.expiresAt ?? 'never'}. Shown once: it is stored only as a hash.\n` +
          `Today it sees ${issued.preview.length} tools: ${issued.preview.join(', ')}\n`,
      );
      return 0;
    },
  },
  revoke: {
    options: {},
    usage: 'revoke TOKEN_ID',
    summary: 'revoke a token: refused from its next request',
    async run(deps, args, io) {
      const t = await revokeToken(deps.store, positional(args, 0, 'TOKEN_ID'));
      if (args.values['json']) printJson(io, view(t));
      else
        io.stdout(`Revoked ${t.id} "${plain(t.label)}" at ${t.revokedAt}. Its next request gets HTTP 401.\n`);
      return 0;
    },
  },
  list: {
    options: {},
    usage: 'list HANDLE',
    summary: "a principal's tokens (never the secrets)",
    async run(deps, args, io) {
      const p = await requirePrincipal(deps.store, positional(args, 0, 'HANDLE'));
      const tokens = await deps.store.listTokens(p.id);
      if (args.values['json']) printJson(io, tokens.map(view));
      else if (tokens.length === 0) io.stdout(`${p.handle} has no tokens.\n`);
      else {
        for (const t of tokens) {
          const state = t.revokedAt ? `revoked ${t.revokedAt}` : `expires ${t.expiresAt ?? 'never'}`;
          io.stdout(`${t.id}  ${plain(t.label).padEnd(16)} ${t.scopes.join(',').padEnd(60)} ${state}\n`);
        }
      }
      return 0;
    },
  },
};
