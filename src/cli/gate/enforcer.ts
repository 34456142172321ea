import { compareManifests, parseManifest, renderMessage, type Tool } from '../../compat/index.ts';
import { headline } from './render.ts';

export interface EnforcerOptions {
  strictDescriptions: boolean;
  strictOpenObjects: boolean;
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
      if (!blocked.has(t.name) || this.withheld.has(t.name)) continue;
      // Name the finding that made the tool break (or stay undecided), not merely the first one.
      const why = headline(t.findings);
      const detail = why ? `${why.rule}: ${renderMessage(why).replace(/\s+/g, ' ')}` : 'changed';
      this.note(`withholding ${t.name}: ${t.verdict} change against the lock (${detail})`);
    }
    for (const name of blocked) this.withheld.add(name);
    for (const t of tools) if (!blocked.has(t.name)) this.withheld.delete(t.name);
    return tools.filter((t) => !blocked.has(t.name));
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

/** The JSON-RPC answer to a call of a withheld tool: what the server says of a tool it does not have. */
export function unknownToolError(id: unknown, name: string): Record<string, unknown> {
  return { jsonrpc: '2.0', id: id ?? null, error: { code: -32602, message: `Unknown tool: ${name}` } };
}
