// Benchmark target for the crash rounds (bench/activity-crash.ts): Warden serving the store
// at argv[2] (a SQLite file or a postgres:// URL) as `warden serve` would, with a member
// named argv[3] and a full token of theirs, the token's rate and record buckets off (the
// load is the point). Prints {"url", "token"} once it listens; the bench kills it with
// SIGKILL mid-load.
import { DEFAULT_RATE_LIMITS } from '../../src/server/index.ts';
import { openStore } from '../../src/store/index.ts';
import { serveMember, UNLIMITED } from './member-server.ts';

const [location, handle] = process.argv.slice(2);
if (!location || !handle) throw new Error('usage: crash.ts <store> <handle>');
await serveMember(await openStore(location), handle, {
  rateLimits: { token: UNLIMITED, anonymous: DEFAULT_RATE_LIMITS.anonymous, record: UNLIMITED },
});
