import { readClientConfig, ConfigError, type Target } from '../../doctor/index.ts';
import { UsageError } from '../io.ts';

/** The endpoint named on the command line, with the headers given by --token and --header. */
export function targetFromUrl(url: string, token: string | undefined, headerArgs: string[]): Target {
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol))
    throw new UsageError(`"${url}" is not an http(s) URL`);
  const headers: Record<string, string> = {};
  for (const raw of headerArgs) {
    const colon = raw.indexOf(':');
    if (colon <= 0) throw new UsageError(`--header "${raw}" is not "Name: value"`);
    headers[raw.slice(0, colon).trim()] = raw.slice(colon + 1).trim();
  }
  if (token !== undefined) {
    if (Object.keys(headers).some((h) => h.toLowerCase() === 'authorization'))
      throw new UsageError('give the token with --token or an Authorization --header, not both');
    headers['Authorization'] = `Bearer ${token}`;
  }
  return {
    kind: 'http',
    transport: 'http',
    name: new URL(url).host,
    url,
    headers,
    source: null,
    references: [],
    dropped: [],
  };
}

/** The servers of a client configuration file, optionally only those named with --server. */
export function targetsFromConfig(
  file: string,
  only: string[],
  inputArgs: string[],
  env: Record<string, string | undefined>,
): Target[] {
  const inputs = new Map<string, string>();
  for (const raw of inputArgs) {
    const eq = raw.indexOf('=');
    if (eq <= 0) throw new UsageError(`--input "${raw}" is not "ID=VALUE"`);
    inputs.set(raw.slice(0, eq), raw.slice(eq + 1));
  }
  let targets: Target[];
  try {
    targets = readClientConfig(file, env, inputs).targets;
  } catch (err) {
    if (err instanceof ConfigError) throw new UsageError(err.message);
    throw err;
  }
  if (only.length === 0) {
    if (targets.length === 0) throw new UsageError(`${file} lists no servers`);
    return targets;
  }
  const unknown = only.filter((n) => !targets.some((t) => t.name === n));
  if (unknown.length > 0)
    throw new UsageError(
      `no server named ${unknown.join(', ')} in ${file} (it has: ${targets.map((t) => t.name).join(', ')})`,
    );
  return targets.filter((t) => only.includes(t.name));
}
