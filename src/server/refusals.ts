import type { ServerResponse } from 'node:http';
import type { HttpRefusalCode } from '../core/refusal.ts';
import type { Authentication } from './auth.ts';
import type { Challenge } from './challenge.ts';
import { sendJson } from './http-io.ts';

/**
 * Every `{error, error_description}` body the HTTP edge answers with, in one place: the
 * codes are a stable vocabulary clients read (RFC 6750's shape, used for all of them).
 * JSON-RPC-shaped refusals (body too large, too many requests, a malformed message) are
 * the protocol's own and live with the step that makes them.
 */
interface EdgeErrorBody {
  /** A code of the catalogue's http family: any other does not type-check. */
  error: HttpRefusalCode;
  error_description?: string;
  [more: string]: unknown;
}

function send(res: ServerResponse, status: number, body: EdgeErrorBody, headers?: Record<string, string>) {
  sendJson(res, status, body, headers);
}

export function forbiddenHost(res: ServerResponse): void {
  send(res, 403, { error: 'forbidden_host', error_description: 'This Host is not served here.' });
}

export function forbiddenOrigin(res: ServerResponse): void {
  send(res, 403, { error: 'forbidden_origin', error_description: 'Requests from this Origin are refused.' });
}

export function notFound(res: ServerResponse, path: string, mcpPath: string): void {
  send(res, 404, {
    error: 'not_found',
    error_description: `Nothing at ${path}. MCP is served at ${mcpPath}.`,
  });
}

/** A side endpoint asked with a method it does not serve. */
export function methodNotAllowed(res: ServerResponse, allow: string): void {
  send(res, 405, { error: 'method_not_allowed' }, { Allow: allow });
}

/** A fault of ours: the text stays in the log, the client learns only that. */
export function internalError(res: ServerResponse): void {
  send(res, 500, { error: 'internal_error' });
}

/**
 * /mcp asked with anything but POST: byte for byte the SDK's own answer for GET and DELETE
 * (it serves only POST, statelessly), now given to every method. Before, a method the
 * SDK's web Request cannot even represent (TRACE) threw in its adapter and was answered
 * 500, its stack logged as a fault.
 */
export function mcpMethodNotAllowed(res: ServerResponse): void {
  sendJson(
    res,
    405,
    { jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null },
    { Allow: 'POST' },
  );
}

/** A present but bad credential: loud, with the challenge and the metadata pointer (RFC 6750, RFC 9728). */
export function unauthorized(
  res: ServerResponse,
  auth: Extract<Authentication, { kind: 'rejected' }>,
  metadataUrl: string,
): void {
  // Header values must be visible ASCII: quote-safe and without the message's typography.
  const description = auth.message.replace(/…/g, '...').replace(/[^\x20-\x7e]|["\\]/g, "'");
  const challenge = `Bearer realm="warden", error="invalid_token", error_description="${description}", resource_metadata="${metadataUrl}"`;
  send(
    res,
    401,
    {
      error: 'invalid_token',
      error_description: auth.message,
      reason: auth.code,
      ...(auth.emptyStore ? { empty_store: true } : {}),
    },
    { 'WWW-Authenticate': challenge },
  );
}

/** The challenge as HTTP: 401 with the metadata pointer, or 403 insufficient_scope (RFC 6750 §3.1, RFC 9728). */
export function sendChallenge(res: ServerResponse, challenge: Challenge, metadataUrl: string): void {
  const scope = challenge.scopes.join(' ');
  if (challenge.kind === 'sign_in') {
    const description =
      challenge.required === 'server'
        ? 'Sign in to this server: it serves nothing without a credential.'
        : challenge.required === 'address'
          ? 'Sign in to use this address: it is for clients that sign in (without a credential, /mcp serves the anonymous tier).'
          : 'Sign in to this server to use tools beyond the anonymous tier.';
    return send(
      res,
      401,
      { error: 'invalid_token', error_description: description, reason: 'sign_in_required' },
      {
        'WWW-Authenticate': `Bearer realm="warden", error="invalid_token", error_description="${description}", scope="${scope}", resource_metadata="${metadataUrl}"`,
      },
    );
  }
  const description =
    'This connection was granted fewer scopes than its principal may grant; ask them for more.';
  send(
    res,
    403,
    { error: 'insufficient_scope', error_description: description, scope },
    {
      'WWW-Authenticate': `Bearer realm="warden", error="insufficient_scope", error_description="${description}", scope="${scope}", resource_metadata="${metadataUrl}"`,
    },
  );
}
