import { assess } from './assess.ts';
import { probeHttp } from './probe-http.ts';
import { probeStdio } from './probe-stdio.ts';
import type { ServerReport, Target, Tier } from './types.ts';

export { readClientConfig, ConfigError } from '@warden-mcp/gate/connect';
export { exitCodeOf } from './exit-codes.ts';
export { isTier, type Check, type ServerReport, type Target, type Tier } from './types.ts';
export { maskTokens } from './mask.ts';

export interface DoctorOptions {
  expect: Tier | null;
  /** Per network step: connect, list, each side request. */
  timeoutMs: number;
}

export const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * Diagnoses one server as its client would reach it. Never throws for anything the
 * server does; every outcome is a report.
 */
async function diagnoseTarget(target: Target, options: DoctorOptions): Promise<ServerReport> {
  const evidence = target.invalid
    ? {
        target,
        mcp: { ok: false, failure: { kind: 'protocol', message: target.invalid } } as const,
        catalog: null,
        diagnose: { kind: 'absent', why: 'not run' } as const,
        protectedResourceMetadata: null,
        stderr: '',
        diagnosisSource: null,
      }
    : target.kind === 'http'
      ? await probeHttp(target, options.timeoutMs)
      : await probeStdio(target, options.timeoutMs);
  return assess(evidence, options.expect);
}

/** Diagnoses every target at once; reports come back in the targets' order. */
export function diagnoseAll(targets: readonly Target[], options: DoctorOptions): Promise<ServerReport[]> {
  return Promise.all(targets.map((t) => diagnoseTarget(t, options)));
}
