import { FAILING, type CampaignResult, type Tally } from './campaign.ts';
import type { Example } from './examples.ts';
import { REAL_FAMILY_NAMES } from './families/real.ts';
import { compact } from './json.ts';

const pct = (n: number, of: number): string => (of === 0 ? '0%' : `${((100 * n) / of).toFixed(1)}%`);

/** Unknown should be the exception: at most this share (%) of the comparisons not refused. */
const UNKNOWN_AIM = 5;
/** The aim over the families of what real schemas use (families/real.ts), which the gate decides less often. */
const REAL_UNKNOWN_AIM = 8;

/** The comparisons the gate could decide: all but those it refused as input. */
export const decidable = (t: Tally): number => t.judged - t.outcomes.refused;

function row(name: string, t: Tally): string {
  const o = t.outcomes;
  return `| ${name} | ${t.pairs} | ${t.judged} | ${o.permissive} | ${o['false-alarm']} | ${o['invalid-compatible']} | ${o.refused} | ${o.unknown} (${pct(o.unknown, decidable(t))}) | ${o.crash} | ${t.slowestMs.toFixed(0)} |`;
}

/**
 * The per-family Markdown table: pairs, comparisons judged, permissive answers, false alarms,
 * compatible answers on pairs the oracle cannot compile, inputs refused, unknowns (their share
 * of the comparisons not refused), crashes, the slowest gate call.
 */
export function table(result: CampaignResult): string {
  const lines = [
    '| family | pairs | judged | permissive | false alarm | invalid→compatible | refused input | unknown | crash | slowest (ms) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const [name, t] of result.families) if (t.pairs > 0) lines.push(row(name, t));
  lines.push(row('**total**', result.totals));
  const t = result.totals;
  lines.push(
    '',
    `*refused input*: unknown because a schema is invalid, its \`$ref\` loops, or it nests deeper than the gate's bound, which is the answer the gate must give there; counted only when the oracle agrees by its own means (Ajv cannot compile or apply the schema; the depth counted apart). *unknown*: the gate could not decide; its share is of the ${t.judged - t.outcomes.refused} comparisons not refused. All unknown answers together: ${t.outcomes.unknown + t.outcomes.refused} of ${t.judged} (${pct(t.outcomes.unknown + t.outcomes.refused, t.judged)}).`,
    '',
    `unknown ${pct(t.outcomes.unknown, decidable(t))} of the comparisons not refused; the gate's aim is at most ${UNKNOWN_AIM}% — ${(100 * t.outcomes.unknown) / Math.max(1, decidable(t)) <= UNKNOWN_AIM ? 'met' : 'NOT met'}`,
  );
  // The families of what real schemas use, and the others, each against its own aim.
  for (const [label, real, aim] of [
    ['the families of what real schemas use', true, REAL_UNKNOWN_AIM],
    ['the other families', false, UNKNOWN_AIM],
  ] as const) {
    let unknown = 0;
    let of = 0;
    for (const [name, f] of result.families)
      if (REAL_FAMILY_NAMES.has(name) === real) {
        unknown += f.outcomes.unknown;
        of += decidable(f);
      }
    if (of > 0)
      lines.push(
        '',
        `unknown over ${label}: ${unknown} of ${of} (${pct(unknown, of)}); the aim is at most ${aim}% — ${(100 * unknown) / of <= aim ? 'met' : 'NOT met'}`,
      );
  }
  const errors = result.totals.outcomes['fuzzer-error'];
  if (errors > 0)
    lines.push(
      '',
      `The fuzzer itself failed on ${errors} comparisons (not counted above); the first: ${result.firstFuzzerError ?? ''}`,
    );
  return lines.join('\n');
}

/**
 * The unknowns by reason, most frequent first: each reason's count over the run and the families
 * it comes from (the three largest), so what keeps the gate from deciding reads at a glance.
 */
export function reasonTable(result: CampaignResult, of: 'reasons' | 'refusals' = 'reasons'): string {
  const total = result.totals.outcomes[of === 'reasons' ? 'unknown' : 'refused'];
  const rows = Object.entries(result.totals[of]).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  if (rows.length === 0) return '';
  const lines = [
    of === 'reasons'
      ? '| unknown because | comparisons | share of unknowns | families (most first) |'
      : '| refused because | comparisons | share of refusals | families (most first) |',
    '|---|---:|---:|---|',
  ];
  for (const [reason, n] of rows) {
    const from = [...result.families]
      .map(([name, t]) => [name, t[of][reason] ?? 0] as const)
      .filter(([, k]) => k > 0)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    const top = from.slice(0, 3).map(([name, k]) => `${name} ${k}`);
    const more = from.length > 3 ? `, ${from.length - 3} more` : '';
    lines.push(`| \`${reason}\` | ${n} | ${pct(n, total)} | ${top.join(', ')}${more} |`);
  }
  lines.push(
    '',
    `A${of === 'reasons' ? 'n unknown' : ' refused'} comparison with several reasons counts under each.`,
  );
  return lines.join('\n');
}

const LABEL: Record<string, string> = {
  permissive: 'permissive (gate said compatible; the oracle found a value old accepts and new rejects)',
  'false-alarm': 'false alarm (gate said breaking; a breaking finding has no witness the oracle confirms)',
  'invalid-compatible': 'invalid→compatible (gate said compatible; the oracle cannot compile a side)',
  crash: 'crash',
};

const LONG = 1500;

/** Compact JSON, cut (with its full length said) when a deep schema would flood the report. */
function clip(text: string, max = LONG): string {
  return text.length <= max
    ? text
    : `${text.slice(0, max)}… (${text.length} characters; the whole is in --json)`;
}

function describe(e: Example): string {
  const { failure: f, minimised: m } = e;
  const c = f.case;
  const j = f.judgement;
  const head = `- **${f.family}** · ${c.direction}${c.strict ? ' · strict open objects' : ''} · pair ${f.pair} (${f.seed}) · gate: ${m.answer}`;
  const lines = [head];
  if (j.outcome === 'crash') lines.push(`  - \`${j.crash?.message}\` ${j.crash?.stack ?? ''}`);
  if (j.outcome === 'false-alarm')
    lines.push(`  - finding \`${m.rule ?? j.finding?.rule}\`: ${j.reason ?? ''}`);
  if (j.counterexample)
    lines.push(
      `  - reading: source ${j.counterexample.reading.source}, target ${j.counterexample.reading.target}`,
    );
  const changed = e.changed.slice(0, 6).map((p) => clip(p, 160));
  const more = e.changed.length > 6 ? ` (and ${e.changed.length - 6} more)` : '';
  lines.push(`  - changed: ${changed.join(' ')}${more}`);
  lines.push(`  - old: \`${clip(compact(m.old))}\``, `  - new: \`${clip(compact(m.new))}\``);
  if (m.value !== undefined)
    lines.push(`  - ${j.outcome === 'false-alarm' ? 'witness' : 'value'}: \`${clip(compact(m.value))}\``);
  return lines.join('\n');
}

/** The minimised examples by class, then every distinct crash message with its count. */
export function examples(result: CampaignResult, list: Example[]): string {
  const out: string[] = [];
  for (const outcome of FAILING) {
    const of = list.filter((e) => e.failure.judgement.outcome === outcome);
    if (of.length === 0) continue;
    out.push(`### ${LABEL[outcome]}`, '', ...of.map(describe), '');
  }
  if (result.crashes.size > 0) {
    out.push('### distinct crash messages', '');
    for (const [message, { count, first }] of result.crashes)
      out.push(`- ${count}× \`${message}\` (first: ${first.family}, pair ${first.pair})`);
    out.push('');
  }
  return out.join('\n');
}

/** One line of progress for stderr. */
export function progress(done: number, of: number, t: Tally, elapsedMs: number): string {
  const o = t.outcomes;
  const rate = (done / Math.max(1, elapsedMs / 1000)).toFixed(1);
  return `fuzz: ${done}/${of} pairs, ${t.judged} judged · permissive ${o.permissive} · false alarm ${o['false-alarm']} · invalid→compatible ${o['invalid-compatible']} · refused ${o.refused} · unknown ${o.unknown} · crash ${o.crash} · ${rate} pairs/s`;
}
