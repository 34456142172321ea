// How `accept` reaches the source a check read: the lock and the source options as given,
// every secret masked, so the printed command can be pasted into a shell or a CI log.
import type { AcceptSource } from '../report/context.ts';
import type { GateArgs } from './options.ts';

const MASK = '***';

/** A URL with any password in it masked: `https://user:***@host/mcp`. */
function maskUrl(url: string): string {
  try {
    const u = new URL(url);
    if (!u.password) return url;
    u.password = MASK;
    return u.href.replace('%2A%2A%2A', MASK);
  } catch {
    return url;
  }
}

/** The source options of a check, as given, with every header and input value masked. */
export function acceptSource(args: GateArgs): AcceptSource {
  const options: string[] = [];
  if (args.config !== undefined) options.push('--config', args.config);
  for (const input of args.inputs ?? []) options.push('--input', `${input.split('=')[0]}=${MASK}`);
  if (args.offline) options.push('--offline');
  if (args.source.url !== undefined) options.push('--url', maskUrl(args.source.url));
  for (const name of Object.keys(args.source.headers)) options.push('--header', `${name}: ${MASK}`);
  if (args.source.manifest !== undefined) options.push('--manifest', args.source.manifest);
  if (args.server !== undefined) options.push('--server', args.server);
  return {
    lock: args.lock,
    options,
    command: args.source.command ?? [],
    serverGiven: args.server !== undefined,
  };
}
