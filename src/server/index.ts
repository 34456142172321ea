export { startHttpServer, type HttpOptions, type MountedHandler, type RunningServer } from './http.ts';
export { refuseOverStdio, startStdio } from './stdio.ts';
export { stderrLogger, silentLogger, type Logger } from './log.ts';
export { authenticate } from './auth.ts';
