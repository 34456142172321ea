// The exact `accept` command that blesses one reviewed change, printed beside it: the same
// lock and source options check was given (secrets masked), and the change bound to its hash.
import type { ItemReport } from '../compat/index.ts';
import { forPeople } from '../text/index.ts';
import { acceptArgument } from '../lock/selection.ts';
import type { RenderContext } from './context.ts';
import { isBlessable } from '../lock/order.ts';

/** A word as a POSIX shell reads it back: bare when safe, else in single quotes. */
function shellWord(word: string): string {
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
  if (!isBlessable(item)) return undefined;
  return command(ctx, many, server, [acceptArgument(item)]);
}

/**
 * The one command that accepts every pending change of a server at once (`--all`), for a large
 * upgrade reviewed as a whole; the reason is left for the person to write.
 */
export function acceptAllCommand(ctx: RenderContext, many: boolean, server: string): string | undefined {
  return command(ctx, many, server, ['--all', '--reason', "'WHY'"]);
}

function command(ctx: RenderContext, many: boolean, server: string, what: string[]): string | undefined {
  const source = ctx.accept;
  if (!source) return undefined;
  const words = [
    ctx.program,
    'accept',
    ...['--lock', source.lock, ...source.options].map(shellWord),
    ...(many && !source.serverGiven ? ['--server', shellWord(server)] : []),
    ...what,
    ...(source.command.length > 0 ? ['--', ...source.command.map(shellWord)] : []),
  ];
  // Shown to a person: a hidden character in a name is made visible (the command then refuses
  // to match, rather than silently blessing something else).
  return forPeople(words.join(' '), 4000);
}
