/**
 * The skill's source format: Markdown with three kinds of HTML comment, read here and nowhere
 * else.
 *
 * - `<!-- if: tool_a tool_b -->` … `<!-- end -->` keeps its lines only for a reader who can
 *   see every tool named; `<!-- if not: tool_a -->` only for one who cannot. Each on a line of
 *   its own; blocks nest. The name `principal` (never a tool's) holds for a reader who acts
 *   for a principal, whatever tools their token shows: `if not: principal` is the anonymous
 *   reader alone.
 * - `<!-- rule some-id: refusal_code -->` after a sentence binds it to the refusal that
 *   enforces it. The agreement test breaks each bound rule with a real client.
 * - Any other comment is a note for the people who edit the source.
 *
 * No comment reaches a reader: what is served is the rendered text alone.
 */

/** One `rule` marker: the rule's id, the refusal code it is bound to, and where it is. */
export interface RuleMarker {
  id: string;
  code: string;
  line: number;
}

/** A sentence of the source, with the rule markers that follow it and the line it starts on. */
export interface SourceSentence {
  text: string;
  rules: RuleMarker[];
  line: number;
  /** The tools a reader must see (`if:`) or must not see (`if not:`) to read this sentence. */
  when: { see: string[]; notSee: string[] };
}

const COMMENT = /<!--([\s\S]*?)-->/g;
const IF_LINE = /^\s*<!--\s*if(\s+not)?:\s*([^>]+?)\s*-->\s*$/;
const END_LINE = /^\s*<!--\s*end\s*-->\s*$/;
const RULE = /^\s*rule\s+([a-z0-9]+(?:-[a-z0-9]+)*):\s*([a-z_]+)\s*$/;
const TOOL = /^[a-z][a-z0-9_]{1,63}$/;

/** A source that does not follow the format: the file, the line and what is wrong. */
export class SkillSourceError extends Error {
  constructor(file: string, line: number, problem: string) {
    super(`${file}:${line}: ${problem}`);
  }
}

interface Condition {
  tools: string[];
  negate: boolean;
  line: number;
}

interface Line {
  text: string;
  number: number;
  conditions: readonly Condition[];
}

/** The source's lines outside the `if`/`end` markers, each with the conditions it sits under. */
function lines(file: string, source: string): Line[] {
  const out: Line[] = [];
  const stack: Condition[] = [];
  source.split('\n').forEach((text, i) => {
    const number = i + 1;
    const opened = IF_LINE.exec(text);
    if (opened) {
      const tools = opened[2]!.trim().split(/\s+/);
      for (const t of tools)
        if (!TOOL.test(t)) throw new SkillSourceError(file, number, `"${t}" is not a tool name`);
      stack.push({ tools, negate: opened[1] !== undefined, line: number });
      return;
    }
    if (END_LINE.test(text)) {
      if (!stack.pop()) throw new SkillSourceError(file, number, '`end` without an `if`');
      return;
    }
    out.push({ text, number, conditions: [...stack] });
  });
  const open = stack.pop();
  if (open) throw new SkillSourceError(file, open.line, '`if` without its `end`');
  return out;
}

const holds = (c: Condition, sees: (tool: string) => boolean) =>
  c.negate ? !c.tools.some(sees) : c.tools.every(sees);

/** Checks every comment of a line: a comment that starts like a marker must be a well-formed one. */
function markersOf(file: string, line: Line): RuleMarker[] {
  const rules: RuleMarker[] = [];
  for (const m of line.text.matchAll(COMMENT)) {
    const body = m[1]!;
    if (/^\s*rule\b/.test(body)) {
      const rule = RULE.exec(body);
      if (!rule) throw new SkillSourceError(file, line.number, `malformed rule marker "<!--${body}-->"`);
      rules.push({ id: rule[1]!, code: rule[2]!, line: line.number });
    } else if (/^\s*(if|end)\b/.test(body))
      throw new SkillSourceError(file, line.number, '`if` and `end` markers stand on a line of their own');
  }
  return rules;
}

/**
 * The text a reader who sees exactly the tools `sees` accepts is given: lines under a failing
 * condition dropped, comments removed, runs of blank lines made one, one newline at the end.
 */
export function renderSkillSource(file: string, source: string, sees: (tool: string) => boolean): string {
  const kept: string[] = [];
  for (const line of lines(file, source)) {
    markersOf(file, line);
    if (line.conditions.every((c) => holds(c, sees))) kept.push(line.text);
  }
  return (
    kept
      .join('\n')
      .replace(COMMENT, '')
      .replace(/[ \t]+$/gm, '')
      .replace(/\n{3,}/g, '\n\n')
      .replace(/^\n+/, '')
      .trimEnd() + '\n'
  );
}

/** Every rule marker of a source, in order. */
export function ruleMarkers(file: string, source: string): RuleMarker[] {
  return lines(file, source).flatMap((l) => markersOf(file, l));
}

/**
 * The source's prose as sentences, each with the rule markers written right after it. A
 * sentence ends at `.`, `!` or `?` before a space or the end of its paragraph; a paragraph is
 * a run of lines between blank lines, headings and list items. Comments other than rule
 * markers, the frontmatter fences and fenced code are not prose.
 */
export function sourceSentences(file: string, source: string): SourceSentence[] {
  const out: SourceSentence[] = [];
  let paragraph: Paragraph | null = null;
  const flush = () => {
    if (paragraph) out.push(...splitSentences(file, paragraph));
    paragraph = null;
  };
  let fenced = false;
  for (const line of lines(
    file,
    source.replace(COMMENT, (c) => (/^<!--\s*(rule|if|end)\b/.test(c) ? c : blankLike(c))),
  )) {
    const text = line.text;
    if (/^\s*```/.test(text)) {
      fenced = !fenced;
      flush();
      continue;
    }
    if (fenced || /^---\s*$/.test(text) || text.trim() === '') {
      flush();
      continue;
    }
    const when = {
      see: line.conditions.filter((c) => !c.negate).flatMap((c) => c.tools),
      notSee: line.conditions.filter((c) => c.negate).flatMap((c) => c.tools),
    };
    const item = /^\s*(?:#+|[-*]|\d+\.)\s+/.exec(text);
    if (item || paragraph === null) {
      flush();
      paragraph = { text: '', starts: [], when };
    }
    const p: Paragraph = paragraph;
    if (p.text) p.text += ' ';
    p.starts.push({ offset: p.text.length, line: line.number });
    p.text += text.slice(item?.[0].length ?? 0).trim();
  }
  flush();
  return out;
}

/** A run of source lines read as one, with where each line starts in it. */
interface Paragraph {
  text: string;
  starts: { offset: number; line: number }[];
  when: SourceSentence['when'];
}

/** A comment replaced by as many newlines as it spanned, so line numbers stay true. */
const blankLike = (comment: string) => '\n'.repeat(comment.split('\n').length - 1);

function splitSentences(file: string, p: Paragraph): SourceSentence[] {
  const lineAt = (offset: number) => p.starts.filter((s) => s.offset <= offset).at(-1)!.line;
  const out: SourceSentence[] = [];
  // A sentence ends at . ! ? (or after the rule markers that follow one) before a space.
  const ends = [...p.text.matchAll(/(?<=[.!?]|-->)\s+(?!<!--)/g)].map((m) => ({
    at: m.index,
    next: m.index + m[0].length,
  }));
  ends.push({ at: p.text.length, next: p.text.length });
  let start = 0;
  for (const end of ends) {
    const piece = p.text.slice(start, end.at);
    const rules: RuleMarker[] = [];
    const text = piece
      .replace(COMMENT, (c, _body, offset: number) => {
        const rule = RULE.exec(c.slice(4, -3));
        if (rule) rules.push({ id: rule[1]!, code: rule[2]!, line: lineAt(start + offset) });
        return '';
      })
      .trim();
    if (text)
      out.push({ text, rules, line: lineAt(start + piece.length - piece.trimStart().length), when: p.when });
    else if (rules.length > 0 && out.length > 0) out[out.length - 1]!.rules.push(...rules);
    else if (rules.length > 0)
      throw new SkillSourceError(file, lineAt(start), 'a rule marker follows no sentence');
    start = end.next;
  }
  return out;
}

/** The words that make a sentence a rule: one that says so must be bound to its refusal. */
export const RULE_WORDS = /\b(never|must|only|cannot|can't|do not|don't|may not)\b/i;
