import { parseManifest, type Tool } from '../tools.ts';
import type { Json, JsonObject } from '../types.ts';

/**
 * Everything an agent reads from one MCP server, as served: the unit the gate pins and judges.
 * A surface left out (`undefined`) was not looked at (an old lock, a tools/list file); an empty
 * list or `null` means the server was asked and serves none.
 */
export interface ServerSnapshot {
  /** `serverInfo` from the handshake. */
  identity?: { name: string; version: string } | null;
  instructions?: string | null;
  tools: Tool[];
  prompts?: JsonObject[];
  resources?: JsonObject[];
  resourceTemplates?: JsonObject[];
  skills?: SkillEntry[];
}

/** A skill as the Skills extension lists it, with the text of each file when it was read. */
export interface SkillEntry {
  uri: string;
  frontmatter: JsonObject;
  resources: SkillFile[] | 'dynamic';
}

export interface SkillFile {
  uri: string;
  /** `sha256:` and 64 hex digits of the raw bytes, as the server published it. */
  digest: string;
  size: number;
  /** The file's text, kept so a later change can be shown; absent for binary or large files. */
  text?: string;
}

/** The surfaces besides tools, in the order reports list them. */
export const SURFACES = ['prompts', 'resources', 'resourceTemplates', 'skills'] as const;

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Reads a file a user gives the gate: a `tools/list` result (tools only), or a whole snapshot
 * `{server, instructions, tools, prompts, resources, resourceTemplates, skills}` as `warden-gate`
 * records one. Throws one plain line for anything else.
 */
export function parseSnapshot(doc: unknown): ServerSnapshot {
  const tools = parseManifest(doc);
  const root = doc as JsonObject;
  const snapshot: ServerSnapshot = { tools };
  if ('server' in root) snapshot.identity = identityOf(root.server);
  if ('instructions' in root) snapshot.instructions = textOrNull(root.instructions, 'instructions');
  for (const surface of ['prompts', 'resources', 'resourceTemplates'] as const) {
    if (Object.hasOwn(root, surface)) snapshot[surface] = objects(root[surface], surface);
  }
  if ('skills' in root) snapshot.skills = objects(root.skills, 'skills').map(skillOf);
  return snapshot;
}

export function identityOf(value: Json | undefined): ServerSnapshot['identity'] {
  if (!isObject(value)) return null;
  return {
    name: typeof value.name === 'string' ? value.name : '',
    version: typeof value.version === 'string' ? value.version : '',
  };
}

function textOrNull(value: Json | undefined, what: string): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string') throw new Error(`"${what}" must be a string`);
  return value;
}

function objects(value: Json | undefined, what: string): JsonObject[] {
  if (!Array.isArray(value)) throw new Error(`"${what}" must be an array`);
  return value.map((v, i) => {
    if (!isObject(v)) throw new Error(`${what}[${i}] is not an object`);
    return v;
  });
}

function skillOf(value: JsonObject, i: number): SkillEntry {
  if (typeof value.uri !== 'string') throw new Error(`skills[${i}] has no string "uri"`);
  const frontmatter = isObject(value.frontmatter) ? value.frontmatter : {};
  if (value.resources === 'dynamic') return { uri: value.uri, frontmatter, resources: 'dynamic' };
  const files = objects(value.resources, `skills[${i}].resources`).map((f, j) => {
    if (typeof f.uri !== 'string' || typeof f.digest !== 'string' || typeof f.size !== 'number')
      throw new Error(`skills[${i}].resources[${j}] needs a string "uri", a string "digest" and a "size"`);
    const file: SkillFile = { uri: f.uri, digest: f.digest, size: f.size };
    if (typeof f.text === 'string') file.text = f.text;
    return file;
  });
  return { uri: value.uri, frontmatter, resources: files };
}

/** A snapshot as the JSON a lock or a snapshot file holds (surfaces not looked at are left out). */
export function snapshotJson(s: ServerSnapshot): JsonObject {
  const out: JsonObject = {};
  if (s.identity !== undefined) out.server = s.identity;
  if (s.instructions !== undefined) out.instructions = s.instructions;
  out.tools = s.tools as unknown as Json;
  for (const surface of SURFACES) if (s[surface] !== undefined) out[surface] = s[surface] as unknown as Json;
  return out;
}
