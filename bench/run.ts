// npm run bench: every benchmark, one after another, each reporting side-by-side ratios.
// `npm run bench -- scale rate` runs only the parts named; `--against <ref>` names the git
// ref the `calls` part compares this tree with (main by default).
import { GATE_BENCHES } from '../packages/gate/bench/run.ts';
import { benchActivity, benchActivityPage } from './activity.ts';
import { benchActivityCrash } from './activity-crash.ts';
import { againstRef, benchCalls } from './calls.ts';
import { benchFlood } from './flood.ts';
import { benchList } from './list.ts';
import { benchPrivateWords } from './private-words.ts';
import { benchRateLimits } from './rate-limits.ts';
import { benchScale } from './scale.ts';
import { benchServer } from './server.ts';
import { benchStartup } from './startup.ts';

const PARTS: [name: string, title: string, run: () => Promise<string>][] = [
  ['server', 'Warden server', benchServer],
  ['list', 'tools/list beside plain node:http', benchList],
  ['flood', 'tools/list under a flood of nested brackets', benchFlood],
  ['activity', 'Activity record: tools/call with and without', benchActivity],
  ['activity-page', 'Activity page: 10,000 recorded calls beside 10', benchActivityPage],
  ['private-words', 'Private words: forwarding attempts caught, ordinary messages queued', benchPrivateWords],
  [
    'activity-crash',
    'Activity record after kill -9: acknowledged calls against the record',
    benchActivityCrash,
  ],
  ['calls', 'tools/call beside a git ref', () => benchCalls(againstRef(process.argv))],
  ...GATE_BENCHES,
  ['scale', 'A club of 100,000', () => benchScale()],
  ['rate', 'Rate-limit buckets', benchRateLimits],
  ['startup', 'Start-up and install, beside node -e 0', benchStartup],
];

const argv = process.argv.slice(2);
const ref = argv.indexOf('--against');
const wanted = argv.filter((_, i) => ref < 0 || (i !== ref && i !== ref + 1));
const unknown = wanted.filter((w) => !PARTS.some(([name]) => name === w));
if (unknown.length) {
  process.stderr.write(`unknown part ${unknown.join(', ')}; parts: ${PARTS.map(([n]) => n).join(', ')}\n`);
  process.exit(2);
}
for (const [name, title, run] of PARTS) {
  if (wanted.length && !wanted.includes(name)) continue;
  process.stdout.write(`\n== ${title} ==\n${await run()}\n`);
}
