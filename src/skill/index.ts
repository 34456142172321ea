import { readFileSync } from 'node:fs';
import { skillEntry, type Skill } from '@modelcontextprotocol/server/ext/skills';
import { REFUSALS } from '../core/refusals/catalogue.ts';
import { renderSkillSource, ruleMarkers, SkillSourceError } from './source.ts';

export { SKILLS_EXTENSION_ID } from '@modelcontextprotocol/server/ext/skills';

/** The skill's name, as its frontmatter and its folder say it. */
const SKILL_NAME = 'warden-club';
/** Where a reader finds the skill: its `SKILL.md`, a resource like any other. */
export const SKILL_URI = `skill://${SKILL_NAME}/SKILL.md`;

/** The files a reader is served, in the order they are listed; each is rendered for its reader. */
const SERVED = ['SKILL.md', 'member-text.md'] as const;
/** The server's `instructions`: the same source format, never a skill file. */
const INSTRUCTIONS = 'instructions.md';

/** One file of the skill as served: its URI, text and media type. */
interface SkillFile {
  uri: string;
  text: string;
  mimeType: string;
}

/** What one reader is served: the skill's entry (with its manifest) and its files by URI. */
export interface ServedSkill {
  entry: Skill;
  files: ReadonlyMap<string, SkillFile>;
}

/** The skill's sources by file name, read once from beside this module (src/ or dist/). */
let sources: Readonly<Record<string, string>> | undefined;

/**
 * The sources, read and checked on first use: a marker out of place or a rule bound to a
 * code the refusal catalogue does not have stops the server at start, not a reader later.
 */
export function skillSources(): Readonly<Record<string, string>> {
  if (sources) return sources;
  const read: Record<string, string> = {};
  for (const file of [...SERVED, INSTRUCTIONS]) {
    const text = readFileSync(new URL(`./club/${file}`, import.meta.url), 'utf8');
    checkSkillSource(file, text);
    read[file] = text;
  }
  sources = Object.freeze(read);
  return sources;
}

/** Throws a SkillSourceError for a marker out of form or a rule bound to no refusal code. */
export function checkSkillSource(file: string, text: string): void {
  renderSkillSource(file, text, () => true);
  for (const rule of ruleMarkers(file, text))
    if (!(rule.code in REFUSALS))
      throw new SkillSourceError(
        file,
        rule.line,
        `rule ${rule.id} names "${rule.code}", which is no refusal code`,
      );
}

/**
 * Who reads: the tools they see at this request, and whether they act for a principal (any
 * agent token does, even one whose scopes show no tool beyond the public ones).
 */
export interface Reader {
  tools: readonly string[];
  principal: boolean;
}

/** The condition name of the source format that holds for a reader acting for a principal. */
const PRINCIPAL = 'principal';

const keyOf = (r: Reader) => `${r.principal ? PRINCIPAL : 'anonymous'}:${r.tools.join(',')}`;
const seer = (r: Reader) => {
  const visible = new Set(r.tools);
  return (name: string) => (name === PRINCIPAL ? r.principal : visible.has(name));
};

/**
 * Rendered once per reader shape: the visible tools follow from the effective scopes, so at
 * most 2 × 2^7 shapes exist (the registry memoises its views the same way).
 */
const skills = new Map<string, Promise<ServedSkill>>();
const instructions = new Map<string, string>();

/** The skill a reader is given, with digests over the bytes served. */
export function skillFor(reader: Reader): Promise<ServedSkill> {
  const key = keyOf(reader);
  let served = skills.get(key);
  if (!served) {
    served = build(reader);
    skills.set(key, served);
  }
  return served;
}

async function build(reader: Reader): Promise<ServedSkill> {
  const sees = seer(reader);
  const src = skillSources();
  const texts: Record<string, string> = {};
  for (const file of SERVED) texts[file] = renderSkillSource(file, src[file]!, sees);
  const entry = await skillEntry(SKILL_NAME, texts);
  const files = new Map<string, SkillFile>();
  for (const file of SERVED) {
    const uri = `skill://${SKILL_NAME}/${file}`;
    files.set(uri, { uri, text: texts[file]!, mimeType: 'text/markdown' });
  }
  return { entry, files };
}

/** The server's `instructions` for a reader. */
export function instructionsFor(reader: Reader): string {
  const key = keyOf(reader);
  let text = instructions.get(key);
  if (text === undefined) {
    text = renderSkillSource(INSTRUCTIONS, skillSources()[INSTRUCTIONS]!, seer(reader))
      .trim()
      .replace(/\n+/g, ' ');
    instructions.set(key, text);
  }
  return text;
}
