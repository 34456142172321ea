// A child process's own CPU time, for benchmarks on a shared machine: the wall clock stretches
// with whatever else runs, the work a process did does not. Pass CPU_HOOK to the child with
// `--import` (before anything else it loads); at exit it writes its CPU time (user and system,
// every thread) to stderr, marked, and processCpu reads it back and removes the line.

const CPU_MARK = 'warden-bench-cpu';

export const CPU_HOOK = `data:text/javascript,${encodeURIComponent(
  `import { writeSync } from 'node:fs'; process.on('exit', () => { const u = process.cpuUsage(); writeSync(2, '\\n${CPU_MARK} ' + (u.user + u.system) + '\\n'); });`,
)}`;

const MARKED = new RegExp(`\\n?${CPU_MARK} (\\d+)\\n?`);

/** The child's CPU time in ms (NaN when it wrote none), and its stderr without the marked line. */
export function processCpu(stderr: string): { cpuMs: number; stderr: string } {
  return { cpuMs: Number(MARKED.exec(stderr)?.[1] ?? NaN) / 1000, stderr: stderr.replace(MARKED, '') };
}
