import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ServerResponse } from 'node:http';
import { SECURITY_HEADERS } from './web.ts';

/**
 * The console's static files, read once at start and served from our own origin:
 * the stylesheet, our scripts (passkeys, the token preview, local dates), and
 * @simplewebauthn/browser's own bundle
 * (no CDN, no build step).
 */
interface Asset {
  type: string;
  body: Buffer;
}

const here = dirname(fileURLToPath(import.meta.url));

function webauthnBundle(): Buffer {
  const entry = createRequire(import.meta.url).resolve('@simplewebauthn/browser');
  return readFileSync(join(dirname(entry), '..', 'dist', 'bundle', 'index.umd.min.js'));
}

let cache: Map<string, Asset> | null = null;

function assets(): Map<string, Asset> {
  cache ??= new Map([
    [
      'console.css',
      { type: 'text/css; charset=utf-8', body: readFileSync(join(here, 'assets', 'console.css')) },
    ],
    [
      'passkey.js',
      { type: 'text/javascript; charset=utf-8', body: readFileSync(join(here, 'assets', 'passkey.js')) },
    ],
    [
      'token-preview.js',
      {
        type: 'text/javascript; charset=utf-8',
        body: readFileSync(join(here, 'assets', 'token-preview.js')),
      },
    ],
    [
      'local-time.js',
      { type: 'text/javascript; charset=utf-8', body: readFileSync(join(here, 'assets', 'local-time.js')) },
    ],
    ['webauthn.js', { type: 'text/javascript; charset=utf-8', body: webauthnBundle() }],
  ]);
  return cache;
}

/** Serves /console/assets/NAME; false when there is no such asset. */
export function serveAsset(res: ServerResponse, name: string): boolean {
  const a = assets().get(name);
  if (!a) return false;
  res.writeHead(200, {
    ...SECURITY_HEADERS,
    'Content-Type': a.type,
    'Content-Length': String(a.body.length),
    'Cache-Control': 'public, max-age=300',
  });
  res.end(a.body);
  return true;
}
