/** What a client configuration says to start or reach: the servers the gate pins and the doctor probes. */

/**
 * A `${…}` reference found in a configuration value. Reported whether or not it
 * resolved: a value the client fills in at start-up is exactly where a token goes missing.
 */
export interface Reference {
  /** Where it was found, e.g. `headers.Authorization` or `env.WARDEN_TOKEN`. */
  field: string;
  /** The reference as written, e.g. `${input:warden-token}`. */
  text: string;
  kind: 'input' | 'env' | 'variable';
  name: string;
  resolved: boolean;
  /** This client does not fill in references of this form: it sends the text as written. */
  literal: boolean;
  /** For VS Code inputs: the prompt the editor shows. */
  description?: string;
  /** `${NAME:-default}` with NAME unset: the value is the configuration's default, not the environment's. */
  defaulted?: boolean;
}

interface TargetBase {
  name: string;
  /** Where the entry came from (a configuration format), or null for a URL on the command line. */
  source: string | null;
  references: Reference[];
  /** Fields left out because a reference in them could not be resolved. */
  dropped: string[];
  /** Set when the entry cannot be run at all (no url nor command, an unresolved url…). */
  invalid?: string;
}

/** An HTTP endpoint: the doctor connects to it exactly as the client would (same URL, same headers). */
export interface HttpTarget extends TargetBase {
  kind: 'http';
  transport: 'http' | 'sse';
  url: string;
  headers: Record<string, string>;
}

/** A local command speaking MCP on stdio: the doctor runs it as the client would. */
export interface StdioTarget extends TargetBase {
  kind: 'stdio';
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
}

export type Target = HttpTarget | StdioTarget;
