// Where an item is pinned in a lockfile: the line of its key, found by walking the JSON text
// (nesting respected, keys decoded), so an annotation or a SARIF result points at the entry a
// reviewer would edit, not at the first place the name happens to appear.
import type { ItemReport } from '../compat/index.ts';

/** Object keys down to `maxDepth`, by path (`JSON.stringify(["servers","default"])`), to their 1-based line. */
export function keyLines(text: string, maxDepth = 4): Map<string, number> {
  const lines = new Map<string, number>();
  // Per open container: its path, and whether the next string in it is a key.
  const stack: { path: string[]; object: boolean; expectKey: boolean }[] = [];
  let line = 1;
  let lastKey: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) line++;
    else if (c === 34) {
      const end = stringEnd(text, i);
      const top = stack[stack.length - 1];
      if (top?.object && top.expectKey) {
        top.expectKey = false;
        if (top.path.length < maxDepth) {
          lastKey = decode(text.slice(i, end + 1));
          const key = JSON.stringify([...top.path, lastKey]);
          if (!lines.has(key)) lines.set(key, line);
        }
      }
      i = end;
    } else if (c === 123 || c === 91) {
      const parent = stack[stack.length - 1];
      // Below the depth of interest the path stops growing: nothing there is recorded.
      const path = !parent
        ? []
        : parent.path.length >= maxDepth
          ? parent.path
          : [...parent.path, parent.object ? (lastKey ?? '') : '[]'];
      stack.push({ path, object: c === 123, expectKey: c === 123 });
    } else if (c === 125 || c === 93) stack.pop();
    else if (c === 44) {
      const top = stack[stack.length - 1];
      if (top?.object) top.expectKey = true;
    }
  }
  return lines;
}

/** The index of the quote closing the string that opens at `start` (or the text's end). */
function stringEnd(text: string, start: number): number {
  let j = start + 1;
  for (;;) {
    const k = text.indexOf('"', j);
    if (k < 0) return text.length - 1;
    let slashes = 0;
    while (text.charCodeAt(k - 1 - slashes) === 92) slashes++;
    if (slashes % 2 === 0) return k;
    j = k + 1;
  }
}

function decode(token: string): string {
  try {
    return JSON.parse(token) as string;
  } catch {
    return token.slice(1, -1);
  }
}

const SURFACE: Record<string, string> = {
  tool: 'tools',
  prompt: 'prompts',
  resource: 'resources',
  'resource-template': 'resourceTemplates',
  skill: 'skills',
  instructions: 'instructions',
  server: 'server',
  launch: 'launch',
};

/** Where a lock (version 2) pins an item: its key under its surface, under its server. */
export function pinnedPath(server: string, item: Pick<ItemReport, 'kind' | 'name' | 'findings'>): string[] {
  const whole = item.findings.some((f) => f.rule === 'server-added' || f.rule === 'server-removed');
  const surface = SURFACE[item.kind] ?? item.kind;
  if (whole) return ['servers', server];
  if (['instructions', 'server', 'launch'].includes(item.kind)) return ['servers', server, surface];
  return ['servers', server, surface, item.name];
}

/**
 * The line of the deepest key of `path` the lock has: the item's own line, else its surface's
 * (an added item, not pinned yet), else its server's, else 1. A version 1 lock, whose tools
 * sit at the top, is read without the `servers` level.
 */
export function lineOf(index: ReadonlyMap<string, number>, path: readonly string[]): number {
  const v1 = !index.has('["servers"]') && path[0] === 'servers';
  const walk = v1 ? path.slice(2) : path;
  // The `servers` key alone says nothing about the item: below a server, or line 1.
  const floor = !v1 && walk[0] === 'servers' ? 2 : 1;
  for (let n = walk.length; n >= floor; n--) {
    const line = index.get(JSON.stringify(walk.slice(0, n)));
    if (line !== undefined) return line;
  }
  return 1;
}
