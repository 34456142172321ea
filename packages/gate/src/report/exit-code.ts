import type { GateResult } from '../lock/compare.ts';
import { GATE_EXIT } from '../host/io.ts';
import { hasDisagreement } from '../lock/order.ts';

/**
 * The exit code of a decided run: 0 identical or compatible, 1 breaking, 2 unknown. A proven
 * break outranks an undecided change. `--allow-unknown` lets a plain unknown pass, never a
 * disagreement between the gate's own signals (that means the gate may be wrong).
 */
export function exitCode(result: GateResult, allowUnknown: boolean): number {
  if (result.verdict === 'breaking') return GATE_EXIT.breaking;
  if (hasDisagreement(result)) return GATE_EXIT.unknown;
  if (result.verdict === 'unknown') return allowUnknown ? GATE_EXIT.pass : GATE_EXIT.unknown;
  return GATE_EXIT.pass;
}
