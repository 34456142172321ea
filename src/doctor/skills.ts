// The skills a server serves this caller (MCP Skills extension, SEP-2640), read as a host reads
// them: listed, and each skill's SKILL.md fetched and verified against the digest it is listed
// with. A host must not load a skill whose SKILL.md fails that check, so the doctor says so.
import type { Client } from '@modelcontextprotocol/client';
import { SkillsClient, type Skill } from '@modelcontextprotocol/client/ext/skills';
import { classifyFailure } from '@warden-mcp/gate/connect';
import type { Check, SkillReport } from './types.ts';

/** What listing the skills showed: each skill, or why the listing itself failed. */
export interface SkillsSeen {
  skills: SkillReport[];
  /** skills/list failed altogether (the server declares the extension but could not list). */
  problem: string | null;
}

/**
 * Lists the caller's skills and verifies each SKILL.md with the SDK's own SkillsClient (size,
 * digest, frontmatter against the entry). Null when the server does not declare the extension.
 * Never throws: a failure is a finding about that skill, or about the listing.
 */
export async function readSkills(client: Client, timeoutMs: number): Promise<SkillsSeen | null> {
  // Asked only of a server that declares it: list() on one that does not logs to the console.
  const skills = new SkillsClient(client, { skipInvalid: true });
  if (!skills.supported) return null;
  try {
    const listing = await skills.list({}, { timeout: timeoutMs });
    const seen = await Promise.all(listing.skills.map((s) => verify(skills, s, timeoutMs)));
    for (const bad of listing.invalid)
      seen.push({
        name: bad.uri ?? `#${bad.index}`,
        uri: bad.uri ?? null,
        digest: null,
        files: null,
        verified: false,
        problem: `skills/list gave an invalid entry: ${bad.reason}`,
      });
    return { skills: seen, problem: null };
  } catch (err) {
    return { skills: [], problem: `skills/list failed: ${classifyFailure(err).message}` };
  }
}

async function verify(skills: SkillsClient, skill: Skill, timeoutMs: number): Promise<SkillReport> {
  const files = skill.resources === 'dynamic' ? null : skill.resources;
  const manifest = files?.find((f) => f.uri === skill.uri);
  const report: SkillReport = {
    name: typeof skill.frontmatter.name === 'string' ? skill.frontmatter.name : skill.uri,
    uri: skill.uri,
    digest: manifest?.digest ?? null,
    files: files?.length ?? null,
    verified: false,
    problem: null,
  };
  try {
    // The skill's own SKILL.md: listed, then size, digest and frontmatter checked on the bytes.
    const read = await skills.read(skill, undefined, { timeout: timeoutMs });
    report.verified = read.verified;
  } catch (err) {
    report.problem = err instanceof Error ? err.message : String(err);
  }
  return report;
}

/** `sha256:1a2b3c4d…`: enough of a digest to tell two apart on a line; JSON carries it whole. */
function shortDigest(digest: string): string {
  const [algorithm, hex] = digest.includes(':') ? digest.split(':', 2) : ['', digest];
  return `${algorithm ? `${algorithm}:` : ''}${(hex ?? '').slice(0, 8)}…`;
}

/**
 * One line per skill: ✓ when its SKILL.md matched its listing, ✗ when it did not (a host must
 * not load it), · for a dynamic skill, whose files are not listed and so cannot be checked.
 */
export function skillChecks(seen: SkillsSeen): Check[] {
  if (seen.problem) return [{ id: 'skills', ok: false, message: seen.problem }];
  if (seen.skills.length === 0)
    return [{ id: 'skills', ok: null, message: 'skills: none listed for this caller' }];
  return seen.skills.map((s) => {
    const what =
      s.digest !== null
        ? `SKILL.md ${shortDigest(s.digest)}, ${s.files} file${s.files === 1 ? '' : 's'}`
        : s.files === null
          ? 'dynamic: its files are not listed'
          : 'SKILL.md not listed';
    const message = `skill: ${s.name} (${what})`;
    if (s.problem)
      return {
        id: 'skill',
        ok: false,
        message: `${message}: does not verify, a host must not load it`,
        details: [s.problem],
      };
    if (!s.verified)
      return { id: 'skill', ok: null, message: `${message}: SKILL.md read, nothing to verify it against` };
    return { id: 'skill', ok: true, message };
  });
}
