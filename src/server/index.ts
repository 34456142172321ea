export { startHttpServer, type RunningServer } from './http.ts';
export { refuseOverStdio, startStdio } from './stdio.ts';
export { stderrLogger, silentLogger } from './log.ts';
export { DEFAULT_RATE_LIMITS, type RateLimits } from './rate-limit.ts';
