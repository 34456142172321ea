import { compareManifests, parseManifest, renderMessage, type Tool } from '../compat/index.ts';
import { headline } from '../lock/order.ts';
import type { GateRefusalCode } from './refusals.ts';

export interface EnforcerOptions {
  strictDescriptions: boolean;
  strictOpenObjects: boolean;
}

/** Why the proxy answers a tools/call itself: a refusal as data, with the rule when one decided it. */
export interface Refusal {
  /** One of the proxy's refusals, as its catalogue (refusals.ts) documents them. */
  code: Exclude<GateRefusalCode, 'batch_not_supported'>;
  reason: string;
  next: string;
  rule?: string;
}

/**
 * Decides, per tools/list page, which tools an agent may see: the lock is the contract. A
 * tool whose change is breaking or unknown is withheld (left out of the list, and refused
 * if called anyway); compatible changes and new tools pass. One instance serves one proxy,
 * whatever its transport, so stdio and HTTP withhold exactly alike.
 */
export class Enforcer {
  readonly withheld = new Set<string>();
  private readonly locked: Map<string, Tool>;
  /** Per withheld tool, the finding that made it break (or stay undecided), as the note names it. */
  private readonly why = new Map<string, { verdict: string; rule?: string; text: string }>();
  /** Tools the server has listed through the gate, so their definitions were judged against the lock. */
  private readonly judged = new Set<string>();
  /** Whether the proxy has read every page of the server's tools itself (list-on-demand.ts). */
  private listedAll = false;

  constructor(
    locked: readonly Tool[],
    private readonly options: EnforcerOptions,
    private readonly note: (line: string) => void,
  ) {
    this.locked = new Map(locked.map((t) => [t.name, t]));
  }

  /** The tools of one page that may be shown; notes each newly withheld tool once. */
  filter(tools: Tool[]): Tool[] {
    const before = tools.map((t) => this.locked.get(t.name)).filter((t): t is Tool => t !== undefined);
    const result = compareManifests(before, tools, this.options);
    const blocked = new Set(
      result.tools.filter((t) => t.verdict === 'breaking' || t.verdict === 'unknown').map((t) => t.name),
    );
    for (const t of result.tools) {
      if (!blocked.has(t.name)) continue;
      // Name the finding that made the tool break (or stay undecided), not merely the first one.
      const top = headline(t.findings);
      const detail = top ? `${top.rule}: ${renderMessage(top).replace(/\s+/g, ' ')}` : 'changed';
      this.why.set(t.name, { verdict: t.verdict, rule: top?.rule, text: detail });
      if (!this.withheld.has(t.name))
        this.note(`withholding ${t.name}: ${t.verdict} change against the lock (${detail})`);
    }
    for (const name of blocked) this.withheld.add(name);
    for (const t of tools) {
      this.judged.add(t.name);
      if (!blocked.has(t.name)) {
        this.withheld.delete(t.name);
        this.why.delete(t.name);
      }
    }
    return tools.filter((t) => !blocked.has(t.name));
  }

  /**
   * Why a call of this tool is answered by the proxy rather than the server, or undefined when
   * it may pass. A withheld tool is refused naming the rule that broke it. A tool of the lock
   * that no tools/list has shown through the gate yet is refused too: its live definition was
   * never compared with the lock, so the gate cannot say it is safe (fail closed). The proxies
   * list on the agent's behalf first (list-on-demand.ts), so this remains only when the server
   * would not list, or does not list the tool.
   */
  refusal(name: string): Refusal | undefined {
    const why = this.why.get(name);
    if (this.withheld.has(name))
      return {
        code: 'tool_withheld',
        reason: `${name}: ${why?.verdict ?? 'breaking'} change against the lock (${why?.text ?? 'changed'})`,
        next: `review the change with "warden-gate check" and bless it with "warden-gate accept --tool ${name}@<new hash>"`,
        ...(why?.rule ? { rule: why.rule } : {}),
      };
    if (this.unjudged(name))
      return this.listedAll
        ? {
            code: 'tool_not_yet_judged',
            reason: `${name} is in the lock, but the server does not list it any more, so there is no definition to compare with the lock`,
            next: `check the server with "warden-gate check"; if the tool was removed on purpose, pin again`,
          }
        : {
            code: 'tool_not_yet_judged',
            reason: `${name} has not been listed by the server through the gate, so its definition was not compared with the lock`,
            next: 'list the tools (tools/list), then call again',
          };
    return undefined;
  }

  /** Records that every page of the server's tools went through filter(). */
  listedEverything(): void {
    this.listedAll = true;
  }

  /** Whether a call of this tool cannot be judged yet: a tool of the lock no listing has shown. */
  unjudged(name: string): boolean {
    return this.locked.has(name) && !this.judged.has(name);
  }

  /**
   * Whether the proxy should list on the agent's behalf before deciding a call of this tool:
   * once it has read every page itself, a locked tool still missing is gone, and listing again
   * for each call of it would let an agent make the proxy list without end.
   */
  needsListing(name: string): boolean {
    return this.unjudged(name) && !this.listedAll;
  }

  /** A `tools/list` result with the withheld tools taken out; anything unreadable lists nothing. */
  filterResult(result: { tools?: unknown; [k: string]: unknown }): { [k: string]: unknown } {
    let tools: Tool[];
    try {
      tools = parseManifest({ tools: result.tools });
    } catch {
      tools = [];
    }
    return { ...result, tools: this.filter(tools) };
  }
}

/**
 * The JSON-RPC answer to a call the proxy refuses: what the server says of a tool it does not
 * have, with the refusal as data (its code, the reason naming the rule, what to do next).
 */
export function unknownToolError(id: unknown, name: string, refusal?: Refusal): Record<string, unknown> {
  return {
    jsonrpc: '2.0',
    id: id ?? null,
    error: { code: -32602, message: `Unknown tool: ${name}`, ...(refusal ? { data: refusal } : {}) },
  };
}
