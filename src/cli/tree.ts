import { ADMIN_GROUPS } from './admin/index.ts';
import { INIT_SUMMARY, INIT_USAGE } from './admin/init.ts';
import { DOCTOR_HELP } from './doctor/index.ts';
import { ACCEPT_USAGE } from './gate/accept.ts';
import { CHECK_USAGE } from './gate/check.ts';
import { CLUB_USAGE } from './gate/club.ts';
import { DIFF_USAGE } from './gate/diff.ts';
import { GATE_COMMANDS } from './gate/index.ts';
import { PIN_USAGE } from './gate/pin.ts';
import { PROXY_USAGE } from './gate/proxy.ts';
import { COMMANDS } from './main.ts';
import { SERVE_HELP } from './serve.ts';
import { STDIO_HELP } from './stdio.ts';

/** One command that does something (a leaf of the tree), as --help and the README show it. */
export interface CommandDoc {
  path: string[];
  /** Its usage lines, from the very help text the command prints. */
  usages: string[];
  summary: string;
}

const GATE_HELP: Record<string, string> = {
  pin: PIN_USAGE,
  check: CHECK_USAGE,
  diff: DIFF_USAGE,
  accept: ACCEPT_USAGE,
  proxy: PROXY_USAGE,
  club: CLUB_USAGE,
};

/** A gate command without help text here would leave the README with an empty cell: fail instead. */
function gateHelp(name: string): string {
  const help = GATE_HELP[name];
  if (help === undefined) throw new Error(`gate ${name} has no usage text in the command tree`);
  return help;
}

/**
 * Every leaf of `warden`'s command tree, built from the same definitions the commands
 * dispatch on and print as help. A test walks it (every node answers --help with exit
 * 0) and the README's command table is generated from it (readme-commands.ts), so
 * neither can drift from the code.
 */
export function commandTree(): CommandDoc[] {
  const top = (name: string) => COMMANDS[name]!.summary;
  const docs: CommandDoc[] = [
    { path: ['serve'], usages: usagesOf(SERVE_HELP), summary: top('serve') },
    { path: ['stdio'], usages: usagesOf(STDIO_HELP), summary: top('stdio') },
    { path: ['admin', 'init'], usages: [`warden admin ${INIT_USAGE}`], summary: INIT_SUMMARY },
  ];
  for (const [group, cmds] of Object.entries(ADMIN_GROUPS))
    for (const [name, c] of Object.entries(cmds))
      docs.push({
        path: ['admin', group, name],
        usages: [`warden admin ${group} ${c.usage}`],
        summary: c.summary,
      });
  for (const [name, c] of Object.entries(GATE_COMMANDS))
    docs.push({ path: ['gate', name], usages: usagesOf(gateHelp(name)), summary: c.summary });
  docs.push({ path: ['doctor'], usages: usagesOf(DOCTOR_HELP), summary: top('doctor') });
  return docs;
}

/** Every node of the tree: the root, each group, each leaf. */
export function commandNodes(): string[][] {
  const seen = new Map<string, string[]>([['', []]]);
  for (const d of commandTree())
    for (let i = 1; i <= d.path.length; i++) seen.set(d.path.slice(0, i).join(' '), d.path.slice(0, i));
  return [...seen.values()];
}

/** The usage lines of a help text: its first paragraph, one entry per "warden …" line, continuations joined. */
export function usagesOf(help: string): string[] {
  const paragraph = help.split(/\n\s*\n/)[0] ?? '';
  const usages: string[] = [];
  for (const raw of paragraph.replace(/^Usage:\s*/, '').split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    if (/^(\S+=\S+\s+)?warden\b/.test(line) || usages.length === 0) usages.push(line);
    else usages[usages.length - 1] += ` ${line}`;
  }
  return usages;
}

/** The README's command table, generated. */
export function commandTable(): string {
  const cell = (s: string) => s.replace(/\|/g, '\\|');
  const rows = commandTree().map(
    (d) => `| ${d.usages.map((u) => `\`${cell(u)}\``).join('<br>')} | ${cell(d.summary)} |`,
  );
  return ['| command | what it does |', '|---|---|', ...rows].join('\n');
}
