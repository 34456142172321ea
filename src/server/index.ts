export {
  startHttpServer,
  type HttpOptions,
  type MountedHandler,
  type OAuthEdge,
  type RunningServer,
} from './http.ts';
export { refuseOverStdio, startStdio } from './stdio.ts';
export { stderrLogger, silentLogger, type Logger } from './log.ts';
export { authenticate, type AccessTokenUse } from './auth.ts';
export { DEFAULT_RATE_LIMITS, type RateLimits } from './rate-limit.ts';
