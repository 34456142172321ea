// Levels, applied once to a decided result: every finding gets the level a team's
// configuration gives it (its rule's default otherwise), an excepted finding is lowered to info
// with the exception's reason, and an `off` finding is dropped. Verdicts are left as they are:
// they say what changed; levels say what the team wants done about it.
import { combineVerdict, levelOf, worstVerdict, type Finding, type ItemReport } from '../compat/index.ts';
import { DISAGREEMENT_RULES } from '../compat/verdicts.ts';
import { forPeople } from '../text/index.ts';
import type { GateResult } from '../lock/compare.ts';
import type { GateConfig, GateException } from './config.ts';

export interface PolicyOutcome {
  result: GateResult;
  /** Exceptions whose last day is past: each fails the run, named with its reason. */
  expired: GateException[];
}

/** Today as the configuration writes dates (UTC). */
function today(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}

function matches(x: GateException, server: string, kind: string, name: string, f: Finding): boolean {
  if (x.rule !== f.rule) return false;
  if (x.server !== undefined && x.server !== server) return false;
  return x.tool === undefined || (kind === 'tool' && x.tool === name);
}

export function applyPolicy(result: GateResult, config: GateConfig, day: string = today()): PolicyOutcome {
  // An exception holds through its last day; from the next one it no longer applies, and fails.
  const expired = config.exceptions.filter((x) => x.expires < day);
  const live = config.exceptions.filter((x) => x.expires >= day);
  let dropped = false;
  const servers = result.servers.map((s) => {
    let touched = false;
    const items = s.comparison.items.flatMap((item): ItemReport[] => {
      const findings = item.findings.flatMap((f): Finding[] => {
        // The gate's own signals disagreeing always fails, whatever a configuration says.
        if (DISAGREEMENT_RULES.has(f.rule)) return [{ ...f, level: 'error' }];
        const x = live.find((e) => matches(e, s.name, item.kind, item.name, f));
        if (x) return [{ ...f, level: 'info', exception: { reason: x.reason, expires: x.expires } }];
        const level = config.rules[f.rule] ?? levelOf(f);
        return level === 'off' ? [] : [{ ...f, level }];
      });
      if (findings.length === item.findings.length) return [{ ...item, findings }];
      // Off means dropped: the item is judged by the findings left, and gone when none is.
      touched = true;
      return findings.length === 0 ? [] : [{ ...item, findings, verdict: combineVerdict(findings) }];
    });
    if (!touched) return { ...s, comparison: { ...s.comparison, items } };
    dropped = true;
    const verdict = worstVerdict(items.map((i) => i.verdict));
    return { ...s, comparison: { ...s.comparison, items, verdict } };
  });
  const verdict = dropped ? worstVerdict(servers.map((s) => s.comparison.verdict)) : result.verdict;
  return { result: { ...result, servers, verdict }, expired };
}

/** One line naming an expired exception and why it was granted, for the run's failure. */
export function expiredLine(x: GateException, file: string | undefined): string {
  const scope = [x.server && `server ${x.server}`, x.tool && `tool ${x.tool}`, `rule ${x.rule}`]
    .filter(Boolean)
    .join(', ');
  const where = file ?? 'the configuration';
  return forPeople(
    `exception expired on ${x.expires} (${scope}) in ${where}: "${x.reason}"; renew its date or remove it`,
    2000,
  );
}
