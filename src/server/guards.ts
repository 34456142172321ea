/**
 * Host and Origin checks owned by Warden (not left to an adapter's defaults):
 * a browser page on a foreign origin, or a DNS-rebound host name, never reaches MCP.
 */

import { isLoopbackHost } from '../core/public-origin.ts';

export interface GuardConfig {
  /** Bound to loopback: then only loopback Host names and Origins are accepted, plus the allow-list. */
  loopbackOnly: boolean;
  /** Exact origins allowed besides (e.g. https://console.example.org). */
  allowedOrigins: string[];
  /** Host names this server answers to besides loopback (from --public-url). */
  allowedHosts: string[];
}

/** An absent Origin (non-browser clients) passes; a present one must be ours or allowed. */
export function originAllowed(origin: string | undefined, cfg: GuardConfig): boolean {
  if (origin === undefined) return true;
  if (cfg.allowedOrigins.includes(origin)) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (cfg.loopbackOnly && isLoopbackHost(url.hostname)) return true;
  return cfg.allowedHosts.includes(url.hostname.toLowerCase());
}

/** On a loopback bind, a Host header naming anything else is DNS rebinding. */
export function hostAllowed(hostHeader: string | undefined, cfg: GuardConfig): boolean {
  if (!cfg.loopbackOnly) return true;
  if (!hostHeader) return false;
  let hostname: string;
  try {
    hostname = new URL(`http://${hostHeader}`).hostname;
  } catch {
    return false;
  }
  return isLoopbackHost(hostname) || cfg.allowedHosts.includes(hostname.toLowerCase());
}
