// Warden's compat gate as a library: it imports nothing else of Warden, so it can stand alone.
export { canonicalHash, canonicalJson, definitionHash } from './hash.ts';
export { jsonText } from './json-text.ts';
export { MAX_SCHEMA_DEPTH, MAX_SCHEMA_REFS, MAX_SCHEMA_VALUES } from './bounds.ts';
export { compareSchemas } from './schemas.ts';
export {
  compareManifests,
  type ManifestComparison,
  type ManifestOptions,
  type ToolReport,
} from './manifests.ts';
export { replay, parseCalls, type RecordedCall, type ReplayResult, type ReplayRejection } from './replay.ts';
export {
  RULES,
  getRule,
  renderMessage,
  ruleVerdict,
  type Rule,
  type RuleId,
  type RuleVerdict,
} from './rules.ts';
export { levelOf } from './levels.ts';
export { parseManifest, asTools, type Tool } from './tools.ts';
export { conformanceFindings } from './conformance.ts';
export { combineVerdict, worstVerdict } from './verdicts.ts';
export { compileSchema, dialectOf } from './validator.ts';
export type {
  CompareOptions,
  Direction,
  Finding,
  Json,
  JsonObject,
  Level,
  Schema,
  SchemaComparison,
  Verdict,
} from './types.ts';
export {
  compareSnapshots,
  parseSnapshot,
  snapshotJson,
  identityOf,
  textChange,
  compareLaunch,
  isExactVersion,
  launchLine,
  SURFACES,
  type ItemReport,
  type ServerComparison,
  type ServerSnapshot,
  type SkillEntry,
  type SkillFile,
  type SurfaceKind,
  type Launch,
  type LaunchContext,
} from './surfaces/index.ts';
export { jsonHash } from './hash.ts';
