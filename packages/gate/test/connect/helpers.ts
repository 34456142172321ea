// Real endpoints for the connect tests: a client as the gate builds it, loopback servers,
// a port nothing listens on, and a throwaway self-signed certificate.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import type { Server as HttpServer } from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { Client, type Transport } from '@modelcontextprotocol/client';

/** The error the SDK's client throws when connecting over `transport`; fails if it connects. */
export async function connectError(transport: Transport, timeout?: number): Promise<unknown> {
  const client = new Client(
    { name: 'connect-test', version: '0.0.0' },
    { versionNegotiation: { mode: 'auto' } },
  );
  try {
    await client.connect(transport, timeout ? { timeout } : undefined);
  } catch (err) {
    return err;
  } finally {
    await client.close().catch(() => undefined);
  }
  throw new Error('the client connected, but the test expected a failure');
}

/** Starts `server` on an ephemeral loopback port and returns that port. */
export async function listen(server: net.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

export function closeServer(server: net.Server): Promise<void> {
  if ('closeAllConnections' in server) (server as HttpServer).closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** A loopback port that was free a moment ago and on which nothing listens now. */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  const port = await listen(server);
  await closeServer(server);
  return port;
}

/** A key and self-signed certificate for localhost, or the reason none could be made. */
export function selfSigned(): { key: string; cert: string } | { skip: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'connect-cert-'));
  try {
    const [key, cert] = [path.join(dir, 'key.pem'), path.join(dir, 'cert.pem')];
    // Node can sign but cannot build an X.509 certificate; openssl can.
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
      ],
      { stdio: 'ignore' },
    );
    return { key: fs.readFileSync(key, 'utf8'), cert: fs.readFileSync(cert, 'utf8') };
  } catch (err) {
    return { skip: `openssl could not make a certificate (${(err as Error).message.split('\n')[0]})` };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
