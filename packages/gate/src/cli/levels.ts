// A team's configuration around one decided run: read before anything is started (a bad file
// stops the run at once), applied to the result, and its expired exceptions failing the run.
import type { CliIo } from '../host/io.ts';
import { GATE_EXIT } from '../host/io.ts';
import type { GateResult } from '../lock/compare.ts';
import { applyPolicy, expiredLine } from '../policy/apply.ts';
import { readGateConfig, type GateConfig } from '../policy/config.ts';
import { expiredAnnotation } from '../report/expired.ts';
import { exitCode } from '../report/exit-code.ts';
import type { Format } from '../report/formats.ts';
import type { GateArgs } from './options.ts';

/** The configuration for a run: --config-file, else warden-gate.config.json in `folder` if there. */
export function readConfigFor(args: GateArgs, folder: string): GateConfig {
  return readGateConfig(args.configFile, folder);
}

export interface Decided {
  result: GateResult;
  /** The exit code the result and the configuration give (before any unread server). */
  code: number;
  /** Prints what fails the run besides its findings: each expired exception, named. */
  report: (io: CliIo, format: Format) => void;
}

/** Levels applied, the exit code under `--fail-on`, and an expired exception failing the run. */
export function decide(raw: GateResult, args: GateArgs, config: GateConfig): Decided {
  const { result, expired } = applyPolicy(raw, config);
  let code = exitCode(result, args.allowUnknown, args.failOn ?? config.failOn ?? 'error');
  if (expired.length > 0 && code === GATE_EXIT.pass) code = GATE_EXIT.breaking;
  return {
    result,
    code,
    report: (io, format) => {
      for (const x of expired) {
        io.stderr(`${io.program ?? 'warden-gate'}: ${expiredLine(x, config.file)}\n`);
        if (format === 'github') io.stdout(expiredAnnotation(x, config.file, expiredLine(x, config.file)));
      }
    },
  };
}
