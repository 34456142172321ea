import { ADMIN_GROUPS } from './admin/index.ts';
import { INIT_SUMMARY, INIT_USAGE } from './admin/init.ts';
import { DOCTOR_HELP } from './doctor/index.ts';
import { GATE_COMMANDS } from '@warden-mcp/gate/cli';
import { CLUB_SUMMARY, CLUB_USAGE } from './gate/club-usage.ts';
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

/** `warden gate X` is `warden-gate X`: the package's help, named as Warden's CLI runs it. */
const asWarden = (help: string): string => help.replace(/\bwarden-gate\b/g, 'warden gate');

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
    docs.push({ path: ['gate', name], usages: usagesOf(asWarden(c.usage)), summary: c.summary });
  docs.push({ path: ['gate', 'club'], usages: usagesOf(CLUB_USAGE), summary: CLUB_SUMMARY });
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
function usagesOf(help: string): string[] {
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
