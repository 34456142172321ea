import { compareManifests, type ManifestOptions } from '../manifests.ts';
import type { ReplayResult } from '../replay.ts';
import type { Verdict } from '../types.ts';
import { combineVerdict, worstVerdict } from '../verdicts.ts';
import { compareIdentity, compareInstructions } from './identity.ts';
import { comparePrompts } from './prompts.ts';
import { compareResources, compareTemplates } from './resources.ts';
import type { ItemReport } from './report.ts';
import { compareSkills } from './skills.ts';
import type { ServerSnapshot } from './snapshot.ts';
import { versionFindings } from './version.ts';

/** Surfaces besides tools, as a snapshot names them. */
type Surface = 'identity' | 'instructions' | 'prompts' | 'resources' | 'resourceTemplates' | 'skills';

export interface ServerComparison {
  verdict: Verdict;
  /** Every item of every surface judged, tools first, each sorted by key; unchanged ones identical. */
  items: ItemReport[];
  replay: ReplayResult;
  /** Surfaces the live server serves that the lock never pinned (an older lock): not judged. */
  unpinned: Surface[];
  /** Surfaces the lock pins that were not read this time (a tools/list file): not judged. */
  unread: Surface[];
}

const SURFACES: readonly Surface[] = [
  'identity',
  'instructions',
  'prompts',
  'resources',
  'resourceTemplates',
  'skills',
];

/**
 * The pinned server against the live one, surface by surface: tools by their schemas and the
 * recorded calls, then identity, instructions, prompts, resources, templates and skills. A
 * surface is judged only when both sides looked at it; otherwise it is named, never guessed.
 */
export function compareSnapshots(
  before: ServerSnapshot,
  after: ServerSnapshot,
  options: ManifestOptions = {},
): ServerComparison {
  const strict = options.strictDescriptions === true;
  const tools = compareManifests(before.tools, after.tools, options);
  const items: ItemReport[] = tools.tools.map((t) => ({ kind: 'tool', ...t }));
  const unpinned: Surface[] = [];
  const unread: Surface[] = [];
  for (const surface of SURFACES) {
    const a = before[surface];
    const b = after[surface];
    if (a === undefined || b === undefined) {
      if (a === undefined && b !== undefined && !isEmpty(b)) unpinned.push(surface);
      if (a !== undefined && b === undefined && !isEmpty(a)) unread.push(surface);
      continue;
    }
    items.push(...judge(surface, before, after, strict));
  }
  announcedVersion(items, before, after);
  return {
    verdict: worstVerdict(items.map((i) => i.verdict)),
    items,
    replay: tools.replay,
    unpinned,
    unread,
  };
}

function judge(surface: Surface, a: ServerSnapshot, b: ServerSnapshot, strict: boolean): ItemReport[] {
  switch (surface) {
    case 'identity':
      return compareIdentity(a.identity, b.identity);
    case 'instructions':
      return compareInstructions(a.instructions, b.instructions, strict);
    case 'prompts':
      return comparePrompts(a.prompts ?? [], b.prompts ?? [], strict);
    case 'resources':
      return compareResources(a.resources ?? [], b.resources ?? [], strict);
    case 'resourceTemplates':
      return compareTemplates(a.resourceTemplates ?? [], b.resourceTemplates ?? [], strict);
    case 'skills':
      return compareSkills(a.skills ?? [], b.skills ?? [], strict);
  }
}

/** The server's announced version against how far everything else moved (see version.ts). */
function announcedVersion(items: ItemReport[], before: ServerSnapshot, after: ServerSnapshot): void {
  const at = items.findIndex((i) => i.kind === 'server');
  const server = items[at];
  if (!server) return;
  const rest = worstVerdict(items.filter((i) => i.kind !== 'server').map((i) => i.verdict));
  const extra = versionFindings(before.identity, after.identity, rest);
  if (extra.length === 0) return;
  const findings = [...server.findings, ...extra];
  items[at] = { ...server, findings, verdict: combineVerdict(findings) };
}

function isEmpty(value: unknown): boolean {
  return value === null || (Array.isArray(value) && value.length === 0);
}
