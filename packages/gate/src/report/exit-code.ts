import { levelOf, type Finding } from '../compat/index.ts';
import type { GateResult } from '../lock/compare.ts';
import { GATE_EXIT } from '../host/io.ts';
import { hasDisagreement } from '../lock/order.ts';
import { atLeast } from './levels.ts';

/**
 * The exit code of a decided run, from the findings at or above `failOn` (default error: a
 * break and an unknown fail, a warning and an info do not): 1 when one of them is breaking,
 * else 2 when one is unknown, else 1 (a warning or info that fails under `--fail-on`); 0 when
 * none fails. A proven break outranks an undecided change. `--allow-unknown` lets a plain
 * unknown pass, never a disagreement between the gate's own signals (the gate may be wrong).
 */
export function exitCode(
  result: GateResult,
  allowUnknown: boolean,
  failOn: 'error' | 'warning' | 'info' = 'error',
): number {
  const failing = result.servers.flatMap((s) =>
    s.comparison.items.flatMap((i): { verdict: Finding['verdict'] }[] =>
      // An item judged without findings (a library caller's) fails by its verdict, at error.
      i.findings.length === 0
        ? i.verdict === 'breaking' || i.verdict === 'unknown'
          ? [{ verdict: i.verdict }]
          : []
        : i.findings.filter((f) => atLeast(levelOf(f), failOn)),
    ),
  );
  if (failing.some((f) => f.verdict === 'breaking')) return GATE_EXIT.breaking;
  if (hasDisagreement(result)) return GATE_EXIT.unknown;
  if (!allowUnknown && failing.some((f) => f.verdict === 'unknown')) return GATE_EXIT.unknown;
  return failing.some((f) => f.verdict === 'compatible') ? GATE_EXIT.breaking : GATE_EXIT.pass;
}
