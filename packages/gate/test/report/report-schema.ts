// The published JSON Schema of the JSON report, served as the output schema of one tool, so the
// gate can judge a change of it as it judges any server's: a report a reader of the pinned
// schema would reject is a breaking change of the report.
//
// Run this file to pin the schema anew after the report's version was raised:
//   node --conditions=warden-source --import tsx packages/gate/test/report/report-schema.ts
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from '../../src/cli/main.ts';
import { bufferIo } from '../../src/host/io.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const SCHEMA_FILE = path.resolve(HERE, '..', '..', 'schema', 'report.schema.json');
/** The lock that pins the schema as it was published for the current version. */
export const SCHEMA_LOCK = path.join(HERE, 'report-schema.lock.json');

export function readReportSchema(): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(SCHEMA_FILE, 'utf8')) as Record<string, unknown>;
}

/** A tools/list result whose one tool returns the report: what the gate pins and checks. */
export function reportManifest(schema: Record<string, unknown> = readReportSchema()): unknown {
  const { $schema: _dialect, $id: _id, ...outputSchema } = schema;
  return {
    tools: [
      {
        name: 'warden_gate_report',
        description: 'The JSON report of warden-gate check and diff.',
        inputSchema: { type: 'object' },
        outputSchema,
      },
    ],
  };
}

/** `warden-gate <command> --manifest <the schema as a manifest> --lock SCHEMA_LOCK …`. */
export async function gateOnSchema(
  command: 'check' | 'pin',
  schema?: Record<string, unknown>,
  ...extra: string[]
): Promise<{ code: number; out: string; err: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-report-schema-'));
  try {
    const manifest = path.join(dir, 'report.tools.json');
    fs.writeFileSync(manifest, JSON.stringify(reportManifest(schema)));
    const io = bufferIo();
    const code = await main([command, '--manifest', manifest, '--lock', SCHEMA_LOCK, ...extra], io);
    return { code, out: io.out.join(''), err: io.err.join('') };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { code, out, err } = await gateOnSchema('pin', undefined, '--force');
  process.stdout.write(out);
  process.stderr.write(err);
  process.exitCode = code;
}
