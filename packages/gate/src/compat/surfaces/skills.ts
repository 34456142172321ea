import { sameJson } from '../hash.ts';
import { toPointer } from '../pointer.ts';
import type { Finding, Json } from '../types.ts';
import { text } from './fields.ts';
import { compareKeyed, type ItemReport } from './report.ts';
import type { SkillEntry, SkillFile } from './snapshot.ts';
import { textChange } from './text.ts';

/** Frontmatter fields that widen what a skill may do: a change needs a person to look. */
const GRANTS = new Set(['allowed-tools', 'allowed_tools', 'allowedTools']);

/**
 * Skills by URI. A skill is whole instruction files a model follows, so every file is pinned
 * by digest: a removed skill or file breaks (instructions point at it); a changed file is
 * shown as its text diff, with the signals a description gets; a skill that turns dynamic can
 * no longer be pinned at all, and one that widens its allowed tools needs a reviewer.
 */
export function compareSkills(
  olds: readonly SkillEntry[],
  news: readonly SkillEntry[],
  strict: boolean,
): ItemReport[] {
  return compareKeyed(new Map(olds.map((s) => [s.uri, s])), new Map(news.map((s) => [s.uri, s])), {
    kind: 'skill',
    added: 'skill-added',
    removed: 'skill-removed',
    compare: (before, after) => [...frontmatter(before, after, strict), ...files(before, after, strict)],
  });
}

function frontmatter(before: SkillEntry, after: SkillEntry, strict: boolean): Finding[] {
  const a = before.frontmatter;
  const b = after.frontmatter;
  const findings = textChange(
    'skill-description-changed',
    '/frontmatter/description',
    text(a.description),
    text(b.description),
    strict,
  );
  for (const field of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (field === 'description' || sameJson(a[field], b[field])) continue;
    const pointer = toPointer(['frontmatter', field]);
    const args: Record<string, Json> = { field, ...present('old', a[field]), ...present('new', b[field]) };
    findings.push(
      GRANTS.has(field)
        ? { rule: 'skill-allowed-tools-changed', verdict: 'unknown', pointer, args }
        : { rule: 'skill-frontmatter-changed', verdict: 'compatible', pointer, args },
    );
  }
  return findings;
}

function files(before: SkillEntry, after: SkillEntry, strict: boolean): Finding[] {
  if (after.resources === 'dynamic') {
    return before.resources === 'dynamic'
      ? []
      : [{ rule: 'skill-became-dynamic', verdict: 'unknown', pointer: '/resources', args: {} }];
  }
  if (before.resources === 'dynamic')
    return [{ rule: 'skill-no-longer-dynamic', verdict: 'compatible', pointer: '/resources', args: {} }];
  const olds = new Map(before.resources.map((f) => [f.uri, f]));
  const findings: Finding[] = [];
  after.resources.forEach((file, i) => {
    const pointer = toPointer(['resources', String(i)]);
    const was = olds.get(file.uri);
    if (!was) findings.push(...added(file, pointer));
    else if (was.digest !== file.digest) findings.push(...changed(was, file, pointer, strict));
  });
  const kept = new Set(after.resources.map((f) => f.uri));
  for (const file of before.resources) {
    if (!kept.has(file.uri))
      findings.push({
        rule: 'skill-file-removed',
        verdict: 'breaking',
        pointer: '/resources',
        args: { file: file.uri },
      });
  }
  return findings;
}

function added(file: SkillFile, pointer: string): Finding[] {
  const args = { file: file.uri };
  if (file.text === undefined) return [{ rule: 'skill-file-added', verdict: 'compatible', pointer, args }];
  // A new file is new instructions: its text is shown and read for the same signals.
  const [first, ...signals] = textChange('skill-file-added', pointer, '', file.text, false, args);
  return [{ ...(first as Finding), args }, ...signals];
}

function changed(was: SkillFile, now: SkillFile, pointer: string, strict: boolean): Finding[] {
  const args = { file: now.uri };
  if (was.text !== undefined && now.text !== undefined)
    return textChange('skill-file-changed', pointer, was.text, now.text, strict, args);
  const finding: Finding = {
    rule: 'skill-file-changed',
    verdict: 'compatible',
    pointer,
    args: { ...args, diff: `content not kept (binary or large): ${was.digest} → ${now.digest}` },
  };
  return [strict ? { ...finding, verdict: 'breaking', reason: 'descriptions are strict' } : finding];
}

function present(key: string, value: Json | undefined): Record<string, Json> {
  return value === undefined ? {} : { [key]: value };
}
