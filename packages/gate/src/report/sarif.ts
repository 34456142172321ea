// SARIF 2.1.0 for code scanning: one result per breaking or unknown finding (compatible ones
// only with --verbose), breaking first, located physically on the lockfile line where the item
// is pinned and logically at the pointer inside the item.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { RULES, jsonText, levelOf, renderMessage } from '../compat/index.ts';
import { itemLabel, type GateResult } from '../lock/compare.ts';
import { locate, type Location, type RenderContext } from './context.ts';
import { changedItems, orderFindings } from '../lock/order.ts';
import { oneLine } from './text.ts';
import { summarize, summaryLine } from './summary.ts';
import { VERSION } from '../version.ts';
import { severity } from './levels.ts';

/** A file as a URI reference: relative to the working directory when it is below it. */
function uri(file: string): string {
  return path.isAbsolute(file)
    ? pathToFileURL(file).href
    : encodeURI(file).replace(/[?#]/g, encodeURIComponent);
}

function physical(at: Location): object {
  return { physicalLocation: { artifactLocation: { uri: uri(at.file) }, region: { startLine: at.line } } };
}

export function renderSarif(result: GateResult, ctx: RenderContext): string {
  const many = result.servers.length > 1;
  const all = changedItems(result).flatMap((e) => orderFindings(e.item.findings).map((f) => ({ ...e, f })));
  // Silent on compatible: a compatible finding at info would be a `note` on every run until
  // accepted, so only --verbose lists them (a warning is listed); the run's properties count
  // the ones left out.
  const found = ctx.verbose
    ? all
    : all.filter((x) => x.f.verdict !== 'compatible' || levelOf(x.f) !== 'info');
  const unlisted = all.length - found.length;
  const used = [...new Set(found.map((x) => x.f.rule))].sort();
  const results = found.map(({ server, item, f }) => {
    const label = itemLabel(server, many, item.kind, item.name);
    const at = locate(ctx, server, item);
    const kind = item.kind === 'tool' ? 'function' : 'object';
    const logical = { name: label, fullyQualifiedName: `${label}${f.pointer}`, kind };
    return {
      ruleId: f.rule,
      ruleIndex: used.indexOf(f.rule),
      level: severity(levelOf(f), f.verdict, 'note'),
      message: { text: `${oneLine(label, 500)}: ${oneLine(renderMessage(f))}` },
      locations: [{ ...(at ? physical(at) : {}), logicalLocations: [logical] }],
      properties: {
        server,
        kind: item.kind,
        item: item.name,
        verdict: f.verdict,
        level: levelOf(f),
        ...(f.exception ? { exception: f.exception } : {}),
        pointer: f.pointer,
        witness: f.witness ?? null,
      },
    };
  });
  const run = {
    tool: {
      driver: {
        name: 'warden-gate',
        version: VERSION,
        rules: used.map((id) => ({
          id,
          shortDescription: { text: RULES.find((r) => r.id === id)?.message ?? id },
        })),
      },
    },
    // Without a lockfile there is no line to point at: the run says why, once.
    ...(ctx.anchor
      ? {}
      : {
          invocations: [
            {
              executionSuccessful: true,
              toolExecutionNotifications: [
                {
                  level: 'note',
                  message: { text: `results carry no physical location: ${ctx.noAnchor ?? 'no lockfile'}` },
                },
              ],
            },
          ],
        }),
    results,
    properties: {
      verdict: result.verdict,
      summary: summarize(result),
      summaryLine: summaryLine(summarize(result)),
      renames: result.renames ?? [],
      ...(unlisted > 0 ? { compatibleFindingsNotListed: unlisted } : {}),
    },
  };
  const doc = { $schema: 'https://json.schemastore.org/sarif-2.1.0.json', version: '2.1.0', runs: [run] };
  return `${jsonText(doc, 2)}\n`;
}
