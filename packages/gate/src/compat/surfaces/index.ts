// Every surface an agent reads from a server, pinned and judged: tools (by the schema engine),
// the server's identity and instructions, prompts, resources, resource templates and skills.
export { compareSnapshots, type ServerComparison } from './server.ts';
export {
  parseSnapshot,
  snapshotJson,
  identityOf,
  SURFACES,
  type ServerSnapshot,
  type SkillEntry,
  type SkillFile,
} from './snapshot.ts';
export type { ItemReport, SurfaceKind } from './report.ts';
export { textChange } from './text.ts';
export { compareLaunch, isExactVersion, launchLine, type Launch, type LaunchContext } from './launch.ts';
