import type { ServerSnapshot } from '../compat/index.ts';

/** "3 tools, 2 prompts, 1 skill": what a pin holds, surfaces with nothing left out. */
export function pinnedCounts(snapshot: ServerSnapshot): string {
  const parts: [number, string][] = [
    [snapshot.tools.length, 'tool'],
    [snapshot.prompts?.length ?? 0, 'prompt'],
    [snapshot.resources?.length ?? 0, 'resource'],
    [snapshot.resourceTemplates?.length ?? 0, 'resource template'],
    [snapshot.skills?.length ?? 0, 'skill'],
  ];
  const shown = parts
    .filter(([n], i) => i === 0 || n > 0)
    .map(([n, what]) => `${n} ${what}${n === 1 ? '' : 's'}`);
  if (snapshot.instructions) shown.push('instructions');
  return shown.join(', ');
}
