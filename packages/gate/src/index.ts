// The gate as a library: compare manifests and schemas, read and write lockfiles.
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
} from './cli/lockfile.ts';
export { readLock } from './cli/compare.ts';
export { loadSnapshot, loadTools, type Source } from './cli/sources.ts';
export { renderText } from './cli/render.ts';
