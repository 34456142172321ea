import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { canonical, isObject, type Json, type JsonObject } from './json.ts';

/** A real schema to mutate, with where it came from. */
export interface Seed {
  name: string;
  origin: 'tool' | 'spec';
  schema: JsonObject;
}

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const NPM_TOOLS = path.join(ROOT, 'bench', 'data', 'npm-tools.json');
const SPEC_DIR = path.join(ROOT, 'test', 'fixtures', 'compat', 'mcp-spec');

interface NpmTools {
  releases: { package: string; version: string; tools: JsonObject[] }[];
}

/** Every tool inputSchema and outputSchema of the recorded npm MCP server releases. */
function toolSeeds(): Seed[] {
  const data = JSON.parse(fs.readFileSync(NPM_TOOLS, 'utf8')) as NpmTools;
  const out: Seed[] = [];
  for (const release of data.releases)
    for (const tool of release.tools)
      for (const key of ['inputSchema', 'outputSchema'] as const) {
        const schema = tool[key];
        if (isObject(schema))
          out.push({
            name: `${release.package}@${release.version} ${String(tool.name)} ${key}`,
            origin: 'tool',
            schema,
          });
      }
  return out;
}

const DEFINITION_REF = /^#\/(\$defs|definitions)\/([^/]+)$/;

/**
 * The names of the definitions a schema reaches through local `$ref`s, transitively: a
 * definition is seeded with only what it uses, so it compiles quickly.
 */
export function reachedDefinitions(body: Json, defs: JsonObject): string[] {
  const reached = new Set<string>();
  const queue: Json[] = [body];
  while (queue.length > 0) {
    const node = queue.pop() as Json;
    if (Array.isArray(node)) queue.push(...node);
    else if (isObject(node))
      for (const [k, v] of Object.entries(node)) {
        if (k === '$ref' && typeof v === 'string') {
          const m = DEFINITION_REF.exec(v);
          const name = m
            ? decodeURIComponent(m[2] as string)
                .replace(/~1/g, '/')
                .replace(/~0/g, '~')
            : undefined;
          if (name !== undefined && !reached.has(name) && defs[name] !== undefined) {
            reached.add(name);
            queue.push(defs[name] as Json);
          }
        } else queue.push(v);
      }
  }
  return [...reached].sort();
}

/** Each definition of each MCP specification revision, as a `$ref` to it with what it reaches. */
function specSeeds(): Seed[] {
  const out: Seed[] = [];
  for (const file of fs
    .readdirSync(SPEC_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const doc = JSON.parse(fs.readFileSync(path.join(SPEC_DIR, file), 'utf8')) as JsonObject;
    const key = isObject(doc.definitions) ? 'definitions' : '$defs';
    const defs = doc[key];
    if (!isObject(defs)) continue;
    for (const name of Object.keys(defs).sort()) {
      const body: JsonObject = { $ref: `#/${key}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}` };
      const kept = reachedDefinitions(body, defs);
      const schema: JsonObject = {
        ...body,
        [key]: Object.fromEntries(kept.map((n) => [n, defs[n] as Json])),
      };
      if (typeof doc.$schema === 'string') schema.$schema = doc.$schema;
      out.push({ name: `mcp-spec ${file.replace(/\.json$/, '')} ${name}`, origin: 'spec', schema });
    }
  }
  return out;
}

/** Keeps the first of every group of seeds with the same canonical JSON. */
function dedupe(seeds: Seed[]): Seed[] {
  const seen = new Set<string>();
  return seeds.filter((s) => {
    const text = canonical(s.schema);
    if (seen.has(text)) return false;
    seen.add(text);
    return true;
  });
}

let cached: Seed[] | undefined;

/** The whole seed corpus, deduplicated, in a fixed order: tool schemas first, then definitions. */
export function seedCorpus(): Seed[] {
  cached ??= dedupe([...toolSeeds(), ...specSeeds()]);
  return cached;
}
