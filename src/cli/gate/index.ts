import { main as gateMain, type GateCommand } from '@warden-mcp/gate/cli';
import type { CliIo } from '../io.ts';
import { CLUB_SUMMARY, CLUB_USAGE } from './club-usage.ts';

/** The one gate command that only makes sense inside Warden: the club gates its own tiers. */
const CLUB: GateCommand = {
  summary: CLUB_SUMMARY,
  usage: CLUB_USAGE,
  load: async () => (await import('./club.ts')).runClub,
};

/** `warden gate …` is the gate package's own CLI (`warden-gate`), run under Warden's name, plus `club`. */
export async function runGate(argv: string[], io: CliIo): Promise<number> {
  return gateMain(argv, io, { program: 'warden gate', commands: { club: CLUB } });
}
