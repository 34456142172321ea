// npm run bench: every benchmark, one after another, each reporting side-by-side ratios.
import { benchCompat } from './compat.ts';
import { benchServer } from './server.ts';

process.stdout.write('== Warden server ==\n' + (await benchServer()) + '\n');
process.stdout.write('\n== Compat gate ==\n' + (await benchCompat()) + '\n');
