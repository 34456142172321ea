// The exact `accept` command that blesses one reviewed change, printed beside it: the same
// lock and source options check was given (secrets masked), and the change bound to its hash.
import type { ItemReport } from '../compat/index.ts';
import { forPeople } from '../text/index.ts';
import { acceptArgument } from './accept.ts';
import type { AcceptSource, RenderContext } from './context.ts';
import type { GateArgs } from './options.ts';
import { isBlessable } from './order.ts';

const MASK = '***';

/** A URL with any password in it masked: `https://user:***@host/mcp`. */
function maskUrl(url: string): string {
  try {
    const u = new URL(url);
    if (!u.password) return url;
    u.password = MASK;
    return u.href.replace('%2A%2A%2A', MASK);
  } catch {
    return url;
  }
}

/** The source options of a check, as given, with every header and input value masked. */
export function acceptSource(args: GateArgs): AcceptSource {
  const options: string[] = [];
  if (args.config !== undefined) options.push('--config', args.config);
  for (const input of args.inputs ?? []) options.push('--input', `${input.split('=')[0]}=${MASK}`);
  if (args.offline) options.push('--offline');
  if (args.source.url !== undefined) options.push('--url', maskUrl(args.source.url));
  for (const name of Object.keys(args.source.headers)) options.push('--header', `${name}: ${MASK}`);
  if (args.source.manifest !== undefined) options.push('--manifest', args.source.manifest);
  if (args.server !== undefined) options.push('--server', args.server);
  return {
    lock: args.lock,
    options,
    command: args.source.command ?? [],
    serverGiven: args.server !== undefined,
  };
}

/** A word as a POSIX shell reads it back: bare when safe, else in single quotes. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The command that accepts this item's change, or undefined for a change that needs no hand
 * (compatible) or a run with nothing to accept into. `--server` is added when several servers
 * were compared and the check did not name one.
 */
export function acceptCommand(
  ctx: RenderContext,
  many: boolean,
  server: string,
  item: ItemReport,
): string | undefined {
  const source = ctx.accept;
  if (!source || !isBlessable(item)) return undefined;
  const words = [
    ctx.program,
    'accept',
    ...['--lock', source.lock, ...source.options].map(shellWord),
    ...(many && !source.serverGiven ? ['--server', shellWord(server)] : []),
    acceptArgument(item),
    ...(source.command.length > 0 ? ['--', ...source.command.map(shellWord)] : []),
  ];
  // Shown to a person: a hidden character in a name is made visible (the command then refuses
  // to match, rather than silently blessing something else).
  return forPeople(words.join(' '), 4000);
}
