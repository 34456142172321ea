import { createHash } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/client';
import { isObject, type JsonRecord } from './json.ts';
import { listAsSent, requestAsSent } from './list-as-sent.ts';

/** The Skills extension's id, as a server declares it under `capabilities.extensions`. */
export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';

/** Skill files are read for their text up to this size each (the extension allows 16 MiB a skill). */
const MAX_TEXT_BYTES = 256 * 1024;
/** At most this many files per skill are read (the extension's own limit). */
const MAX_FILES = 512;
/** Text kept over all of a server's skills: past it, files are pinned by digest alone. */
const MAX_TOTAL_TEXT_BYTES = 8 * 1024 * 1024;

/**
 * Everything a connected server serves to an agent, as sent: identity, instructions, tools,
 * prompts, resources, resource templates, and skills with the text of their files. A surface
 * the server does not declare is read as empty (it serves none). The result is the snapshot
 * document the gate pins (`{server, instructions, tools, prompts, …}`).
 */
export async function readServer(client: Client, timeoutMs?: number): Promise<JsonRecord> {
  const caps = (client.getServerCapabilities() ?? {}) as JsonRecord;
  const info = client.getServerVersion();
  const list = (method: string, field: string) => listAsSent(client, method, field, timeoutMs);
  const has = (capability: string) => isObject(caps[capability]);
  const doc: JsonRecord = {
    server: info ? { name: info.name, version: info.version } : null,
    instructions: client.getInstructions() ?? null,
    tools: await list('tools/list', 'tools'),
    prompts: has('prompts') ? await list('prompts/list', 'prompts') : [],
    resources: has('resources') ? await list('resources/list', 'resources') : [],
    resourceTemplates: has('resources') ? await list('resources/templates/list', 'resourceTemplates') : [],
    skills: [],
  };
  const extensions = isObject(caps.extensions) ? caps.extensions : {};
  if (isObject(extensions[SKILLS_EXTENSION])) {
    const skills = await list('skills/list', 'skills');
    const budget = { left: MAX_TOTAL_TEXT_BYTES };
    const withText: unknown[] = [];
    // One skill after another: the budget is spent in listing order, the same on every run.
    for (const s of skills) withText.push(await withTexts(client, s, budget, timeoutMs));
    doc.skills = withText;
  }
  return doc;
}

/**
 * A skill entry with the text of each of its files, read with `resources/read` and kept only
 * when its bytes match the digest and size the entry published (anything else is not what the
 * entry describes, and is left for the digest alone to pin).
 */
async function withTexts(
  client: Client,
  skill: unknown,
  budget: { left: number },
  timeoutMs?: number,
): Promise<unknown> {
  if (!isObject(skill) || !Array.isArray(skill.resources)) return skill;
  const files = skill.resources.slice(0, MAX_FILES);
  const read = await Promise.all(
    files.map(async (file) => {
      if (!isObject(file) || typeof file.uri !== 'string' || typeof file.size !== 'number') return file;
      if (file.size > MAX_TEXT_BYTES || file.size > budget.left) return file;
      budget.left -= file.size;
      const text = await readText(client, file.uri, timeoutMs);
      if (text === undefined) return file;
      const bytes = Buffer.from(text, 'utf8');
      const digest = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
      return digest === file.digest && bytes.length === file.size ? { ...file, text } : file;
    }),
  );
  return { ...skill, resources: [...read, ...skill.resources.slice(MAX_FILES)] };
}

async function readText(client: Client, uri: string, timeoutMs?: number): Promise<string | undefined> {
  try {
    const result = await requestAsSent(client, 'resources/read', { uri }, timeoutMs);
    const contents = isObject(result) && Array.isArray(result.contents) ? result.contents : [];
    const first = contents.find((c) => isObject(c) && c.uri === uri) ?? contents[0];
    return isObject(first) && typeof first.text === 'string' ? first.text : undefined;
  } catch {
    // A file that cannot be read is pinned by its digest alone; the listing still stands.
    return undefined;
  }
}
