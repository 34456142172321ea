// The gate as a library: compare manifests and schemas, read and write lockfiles, judge a lock
// against what a server serves, render the result in every format, and enforce a lock at run
// time. Nothing here comes from cli/, which only parses arguments into calls of these.
export * from './compat/index.ts';
export {
  acceptEntry,
  buildLock,
  lockServer,
  DEFAULT_SERVER,
  lockToTools,
  lockSnapshot,
  pickServer,
  parseLock,
  writeLock,
  LOCK_VERSION,
  type AuditEntry,
  type Lock,
  type LockedTool,
} from './lock/lockfile.ts';
export {
  compareServers,
  readCalls,
  readLock,
  readServers,
  type GateResult,
  type JudgeOptions,
  type ServerResult,
} from './lock/compare.ts';
export { loadSnapshot, loadTools, type Source } from './sources/sources.ts';
export { PLAIN, type AcceptSource, type RenderContext } from './report/context.ts';
export { FORMATS, isQuiet, renderFormat, type Format } from './report/formats.ts';
export { JSON_REPORT_VERSION, renderJson } from './report/json.ts';
export { renderText } from './report/text.ts';
export { ANNOTATIONS_PER_LEVEL, renderGithub } from './report/github.ts';
export { renderSarif } from './report/sarif.ts';
export { renderJunit } from './report/junit.ts';
export { renderMarkdown } from './report/markdown.ts';
export { exitCode } from './report/exit-code.ts';
export { Enforcer, type EnforcerOptions, type Refusal } from './enforce/enforcer.ts';
export { GATE_REFUSALS, type GateRefusalCode } from './enforce/refusals.ts';
export { serveStdioProxy, type StdioProxyOptions } from './proxy/stdio.ts';
export { serveHttpProxy, type HttpProxyOptions } from './proxy/http.ts';
