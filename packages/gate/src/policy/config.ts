// A team's configuration of the gate, read from the repository: a level per rule, exceptions
// with a reason and an expiry date, and the level that fails the run. A bad file stops the run
// with one line naming what is wrong (exit 3), before any server is started.
import fs from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { RULES, type Level } from '../compat/index.ts';
import { DISAGREEMENT_RULES } from '../compat/verdicts.ts';
import { withoutByteOrderMark } from '../connect/jsonc.ts';
import { UsageError } from '../host/io.ts';
import { forPeople } from '../text/index.ts';
import { CONFIG_FILE_NAME, CONFIG_SCHEMA } from './config-schema.ts';
import { nearest } from './nearest.ts';

/** The lowest level that fails a run. */
type FailOn = Exclude<Level, 'off'>;

/** Findings of a rule (on one server, one tool) lowered to info until a date, for a reason. */
export interface GateException {
  server?: string;
  tool?: string;
  rule: string;
  reason: string;
  /** The last day (UTC) it holds, YYYY-MM-DD. */
  expires: string;
}

export interface GateConfig {
  /** The file it was read from; absent when none was. */
  file?: string;
  rules: Record<string, Level>;
  exceptions: GateException[];
  failOn?: FailOn;
}

/** No file: every rule at its default level, no exception, failing on error. */
export const NO_CONFIG: GateConfig = { rules: {}, exceptions: [] };

/** Bigger than any hand-written configuration; a file past it is refused, not read. */
const MAX_BYTES = 1_000_000;

let validate: ReturnType<Ajv2020['compile']> | undefined;

/**
 * The configuration a run uses: `given` (--config-file) must exist; otherwise
 * warden-gate.config.json in `folder` (the lockfile's) is read if it is there.
 */
export function readGateConfig(given: string | undefined, folder: string): GateConfig {
  const file = given ?? path.join(folder, CONFIG_FILE_NAME);
  let text: string;
  try {
    const size = fs.statSync(file).size;
    if (size > MAX_BYTES)
      throw new UsageError(`${file}: ${size} bytes, more than a configuration (${MAX_BYTES})`);
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if (err instanceof UsageError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (given === undefined && code === 'ENOENT') return NO_CONFIG;
    throw new UsageError(`cannot read ${file}: ${code ?? String(err)}`);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(withoutByteOrderMark(text));
  } catch (err) {
    throw new UsageError(`${file} is not JSON: ${forPeople((err as Error).message, 200)}`);
  }
  return { file, ...parseGateConfig(doc, file) };
}

/** Checks a parsed configuration against its schema and the rule table; the first problem, in one line. */
export function parseGateConfig(doc: unknown, file: string): Omit<GateConfig, 'file'> {
  validate ??= new Ajv2020({ strict: false, allErrors: false }).compile(CONFIG_SCHEMA);
  if (!validate(doc)) {
    const e = validate.errors?.[0];
    const where = e?.instancePath
      ? e.instancePath
          .slice(1)
          .replace(/\/(\d+)/g, '[$1]')
          .replace(/\//g, '.')
      : 'the configuration';
    const extra =
      e?.keyword === 'additionalProperties'
        ? ` (${forPeople(String((e.params as { additionalProperty: string }).additionalProperty), 100)})`
        : e?.keyword === 'enum'
          ? ` (${(e.params as { allowedValues: string[] }).allowedValues.join(', ')})`
          : '';
    throw new UsageError(`${file}: ${forPeople(where, 200)} ${e?.message ?? 'is not valid'}${extra}`);
  }
  const config = doc as Omit<GateConfig, 'file'>;
  for (const id of Object.keys(config.rules ?? {})) assertRule(file, 'rules', id);
  (config.exceptions ?? []).forEach((x, i) => {
    assertRule(file, `exceptions[${i}].rule`, x.rule);
    if (!isDate(x.expires))
      throw new UsageError(`${file}: exceptions[${i}].expires ${x.expires} is not a date (YYYY-MM-DD)`);
  });
  return {
    rules: config.rules ?? {},
    exceptions: config.exceptions ?? [],
    ...(config.failOn ? { failOn: config.failOn } : {}),
  };
}

const IDS: string[] = RULES.map((r) => r.id);

function assertRule(file: string, where: string, id: string): void {
  if ((DISAGREEMENT_RULES as ReadonlySet<string>).has(id))
    throw new UsageError(
      `${file}: ${where}: ${id} means the gate's own signals disagree; it always fails and cannot be tuned`,
    );
  if (!IDS.includes(id))
    throw new UsageError(
      `${file}: ${where}: no rule "${forPeople(id, 100)}"; nearest: ${nearest(id, IDS).join(', ')}`,
    );
}

/** A real calendar day, YYYY-MM-DD (2026-02-30 is not). */
function isDate(text: string): boolean {
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text;
}
