export { createConsole, type ConsoleHandler } from './app.ts';
export type { ConsoleDeps } from './context.ts';
