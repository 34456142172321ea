// Reaching MCP servers as a client would: configuration files of four clients, the servers
// they name, why a connection failed, and tools/list read as sent. The gate pins from here;
// Warden's doctor diagnoses from here.
export { readClientConfig, ConfigError, type ClientConfig, type ConfigFormat } from './config.ts';
export { targetFromEntry } from './entry.ts';
export { explainFailure, keepChallenge, maskSecrets, type ExplainContext } from './explain.ts';
export { classifyFailure, type Failure } from './failure.ts';
export { isObject, type JsonRecord } from './json.ts';
export { parseJsonc } from './jsonc.ts';
export { briefError, listToolsAsSent } from './list-as-sent.ts';
export { expandReferences, FORMS_BY_CLIENT, type ReferenceContext } from './references.ts';
export { groupLaunch } from './launch.ts';
export { reachAndRead, ReachError, type Reachable } from './reach.ts';
export { readServer, SKILLS_EXTENSION } from './read-server.ts';
export { launchStdio, type LaunchedStdio, type StdioEvidence, type StdioSpec } from './stdio.ts';
export type { HttpTarget, Reference, StdioTarget, Target } from './types.ts';
