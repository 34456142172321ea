import type { Finding } from '../types.ts';
import { combineVerdict } from '../verdicts.ts';
import { jsonHash } from '../hash.ts';
import type { ItemReport } from './report.ts';
import type { ServerSnapshot } from './snapshot.ts';
import { textChange } from './text.ts';

/**
 * Who answers: a new version is news, a new name may be another server at the same place
 * (fail closed until a person accepts it).
 */
export function compareIdentity(
  before: ServerSnapshot['identity'],
  after: ServerSnapshot['identity'],
): ItemReport[] {
  const a = before ?? { name: '', version: '' };
  const b = after ?? { name: '', version: '' };
  const findings: Finding[] = [];
  if (a.name !== b.name)
    findings.push({
      rule: 'server-name-changed',
      verdict: 'unknown',
      pointer: '/name',
      args: { old: a.name, new: b.name },
    });
  if (a.version !== b.version)
    findings.push({
      rule: 'server-version-changed',
      verdict: 'compatible',
      pointer: '/version',
      args: { old: a.version, new: b.version },
    });
  return [item('server', '(server)', before, after, findings)];
}

/** The server's instructions: text a model reads before anything else, judged as a description. */
export function compareInstructions(
  before: string | null | undefined,
  after: string | null | undefined,
  strict: boolean,
): ItemReport[] {
  const findings = textChange('instructions-changed', '', before ?? '', after ?? '', strict);
  return [item('instructions', '(instructions)', before ?? null, after ?? null, findings)];
}

function item(
  kind: ItemReport['kind'],
  name: string,
  before: unknown,
  after: unknown,
  findings: Finding[],
): ItemReport {
  const oldHash = before === null || before === undefined ? null : jsonHash(before);
  const newHash = after === null || after === undefined ? null : jsonHash(after);
  if (findings.length === 0)
    return { kind, name, verdict: 'identical', change: 'unchanged', oldHash, newHash, findings };
  const change = oldHash === null ? 'added' : newHash === null ? 'removed' : 'changed';
  return { kind, name, verdict: combineVerdict(findings), change, oldHash, newHash, findings };
}
