import type { JsonObject } from '../core/json.ts';
import {
  evaluatePrivateWords,
  fingerprintsOf,
  type HeldFingerprint,
  type OutgoingText,
} from '../core/private-words.ts';
import type { CompiledTool, ToolOutcome, ToolWords } from '../core/registry.ts';
import { sameRequest } from '../core/same-request.ts';
import { observedWrapper } from '../untrusted/index.ts';
import { principalOf, type ToolContext } from './context.ts';
import { approvedByPrincipal, queueForPrincipal } from './decisions.ts';

/**
 * The private-words check at the one path to every handler (tools/invoke.ts), reading
 * each tool's `words` declaration: before the handler, an agent's outgoing text that
 * carries a passage another member wrote privately to its principal is queued as the
 * principal's decision; after it, what a 'private' tool served is remembered.
 */

/** Agents only: the principal in person, or an act they approved, passes on what they choose. */
function checkedAgent(ctx: ToolContext): { principalId: string; handle: string } | null {
  if (ctx.caller.kind !== 'agent' || approvedByPrincipal(ctx)) return null;
  return { principalId: ctx.caller.principal.id, handle: ctx.caller.principal.handle };
}

/** Queues the call for the principal when its outgoing text carries private words; null lets it run. */
export async function holdPrivateWords(
  tool: CompiledTool<ToolContext>,
  args: JsonObject,
  ctx: ToolContext,
): Promise<ToolOutcome | null> {
  const agent = checkedAgent(ctx);
  const { sends, recipient } = tool.spec.words;
  if (!agent || sends.length === 0) return null;
  const outgoing: OutgoingText[] = [];
  for (const field of sends) {
    const text = args[field];
    if (typeof text !== 'string') continue;
    const fingerprints = fingerprintsOf(text, agent.principalId);
    if (fingerprints.length > 0) outgoing.push({ field, fingerprints });
  }
  if (outgoing.length === 0) return null;
  const held = await ctx.store.findPrivateWords(
    agent.principalId,
    outgoing.flatMap((o) => o.fingerprints),
    ctx.now(),
  );
  if (held.length === 0) return null;
  const recipients = await recipientsOf(recipient, args, ctx);
  if (recipients === null) return null;
  const verdict = evaluatePrivateWords(outgoing, held, { own: agent.handle, recipients });
  if (verdict.within) return null;
  return queueForPrincipal(
    ctx,
    tool.spec.name,
    { ...args },
    verdict,
    sameRequest.privateWords(tool.spec.name, verdict.authors, recipients),
  );
}

/**
 * Whose words may go back to them. Null when the question answered does not exist or was
 * put to another principal: the handler then refuses the call as it would without the
 * check (nothing to queue).
 */
async function recipientsOf(
  recipient: ToolWords<unknown>['recipient'],
  args: JsonObject,
  ctx: ToolContext,
): Promise<string[] | null> {
  if (!recipient) return [];
  if ('handle' in recipient) {
    const to = args[recipient.handle];
    return typeof to === 'string' ? [to] : [];
  }
  const id = args[recipient.question];
  const q = typeof id === 'string' ? await ctx.store.getQuestion(id) : null;
  return q && q.targetId === principalOf(ctx).id ? [q.askerHandle] : null;
}

/**
 * The context a handler runs with. For a 'private' tool called by an agent, its wrapper
 * also notes each text it wraps, and `remember` records the fingerprints of those another
 * member wrote, before the result leaves: if they cannot be recorded, nothing is served.
 */
export function servingContext(
  tool: CompiledTool<ToolContext>,
  ctx: ToolContext,
): { ctx: ToolContext; remember: () => Promise<void> } {
  const agent = ctx.caller.kind === 'agent' ? ctx.caller.principal : null;
  if (!agent || tool.spec.words.serves !== 'private') return { ctx, remember: async () => {} };
  const served: HeldFingerprint[] = [];
  const seen = (raw: string, author: string): void => {
    if (author === agent.handle) return;
    for (const fingerprint of fingerprintsOf(raw, agent.id)) served.push({ fingerprint, author });
  };
  return {
    ctx: { ...ctx, wrapper: observedWrapper(ctx.wrapper, seen) },
    remember: () => ctx.store.recordPrivateWords(agent.id, served, ctx.now()),
  };
}
