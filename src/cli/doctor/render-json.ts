import type { ServerReport } from '../../doctor/index.ts';

/**
 * The stable JSON shape: `{ servers: [ { name, url, tier, tools, total, reasons, ok, … } ] }`.
 * Those seven fields keep their names and meaning; the rest may grow, never be renamed.
 */
export function renderJson(reports: readonly ServerReport[], exitCode: number): string {
  const servers = reports.map((r) => {
    const { name, url, tier, tools, total, reasons, ok, ...rest } = r;
    return { name, url, tier, tools, total, reasons, ok, ...rest };
  });
  return JSON.stringify({ servers, exit_code: exitCode }, null, 2) + '\n';
}
