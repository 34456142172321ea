import { NO_TOKEN } from './endpoints.ts';
import type { Evidence } from './evidence.ts';
import type { Failure } from '@warden-mcp/gate/connect';
import { anonymousFix, rejectionFix } from './fixes.ts';

/** Warden's 401 reason when a credential is asked for where none was sent (a sign-in challenge). */
const SIGN_IN_REQUIRED = 'sign_in_required';
import { anonymousReason, literalCredential, rejectionReason } from './reasons.ts';
import { addMetadataCheck, commandLine, droppedCredential, finish } from './report.ts';
import type { ServerReport } from './types.ts';

/**
 * The verdict when no MCP connection could be had: a refused credential (exit 1), an
 * endpoint that could not be reached or a command that could not start (exit 2), or
 * something that answered but not in MCP (exit 2).
 */
export function failed(report: ServerReport, e: Evidence, f: Failure): ServerReport {
  const where = e.target.kind === 'http' ? e.target.url : commandLine(e.target);
  if (e.diagnose.kind === 'rejected' || f.kind === 'unauthorized') {
    const came = e.target.kind === 'http' ? 'reachable' : 'started';
    report.checks.push({ id: 'reachable', ok: true, message: `${came}: ${where}` });
    report.server = e.catalog || e.diagnose.kind === 'rejected' ? 'warden' : 'other';
    report.total = e.catalog?.total ?? null;
    report.protected_resource_metadata = e.protectedResourceMetadata;
    if (e.diagnose.kind === 'rejected' && e.diagnose.rejection.reason === NO_TOKEN)
      return refusedWithoutToken(report, e);
    const sentNothing = Object.keys(e.target.kind === 'http' ? e.target.headers : {}).length === 0;
    if (sentNothing && e.diagnose.kind === 'rejected' && e.diagnose.rejection.reason === SIGN_IN_REQUIRED) {
      // No credential was sent, so none was rejected: this address (or server) asks to sign in.
      const reason = `sign-in required here: ${e.diagnose.rejection.description}`;
      report.checks.push({ id: 'token', ok: false, message: reason });
      addMetadataCheck(report);
      report.fix =
        'connect with a client that signs in through OAuth (it is sent to sign in as it connects), or give a Warden agent token (--token) to check a tier here';
      return finish(report, 'rejected', [reason]);
    }
    if (e.diagnose.kind === 'rejected') {
      const reason = rejectionReason(e.diagnose.rejection, e.target);
      const how = e.target.kind === 'http' ? 'HTTP 401' : 'the process exited';
      report.checks.push({ id: 'token', ok: false, message: `token rejected (${how}): ${reason}` });
      const literal = literalCredential(e.target, report.references);
      if (literal.length > 0) {
        const texts = literal.map((r) => r.text).join(', ');
        report.fix = `this client sends ${texts} as written: put the token itself in the entry, or use a client that fills in references`;
        return finish(report, 'rejected', [
          reason,
          `the credential holds ${texts}, which this client does not fill in`,
        ]);
      }
      report.fix = rejectionFix(e.diagnose.rejection, e.target);
      return finish(report, 'rejected', [reason]);
    }
    if (sentNothing && e.oauth) {
      // A server that requires sign-in (warden serve --require-sign-in): the client is meant to sign in.
      const reason = `the server requires sign-in and serves nothing without it: a client that supports MCP authorization signs in through ${e.oauth.authorizationServers.join(', ')}, and its principal picks among the scopes offered: ${e.oauth.scopes.join(', ')}`;
      report.checks.push({ id: 'token', ok: false, message: reason });
      addMetadataCheck(report);
      report.fix =
        'connect with a client that signs in through OAuth, or give a Warden agent token (--token) to check a tier here';
      return finish(report, 'rejected', [reason]);
    }
    const reason = `the server requires authorization (${f.message}) and refused ${
      sentNothing ? 'a request without credentials' : 'the headers sent'
    }`;
    report.checks.push({ id: 'token', ok: false, message: reason });
    addMetadataCheck(report);
    report.fix = 'give the credential this server expects (see its protected-resource metadata)';
    return finish(report, 'rejected', [reason]);
  }
  // Over HTTP silence is an outage; a local process that started but stays silent is not speaking MCP.
  if (f.kind === 'unreachable' || (f.kind === 'timeout' && e.target.kind === 'http')) {
    const what =
      e.target.kind === 'http'
        ? `unreachable: ${where} (${f.message})`
        : `could not start: ${where} (${f.message})`;
    report.checks.push({ id: 'reachable', ok: false, message: what });
    report.fix =
      e.target.kind === 'http'
        ? 'check that the server is running and that the URL (host, port, path) is right'
        : 'check that the command exists and runs from this directory';
    return finish(report, 'unreachable', [what]);
  }
  const stderr = e.stderr.trim().split('\n').slice(-3).join(' | ');
  const what = `${where} did not speak MCP: ${f.message}${stderr ? ` (stderr: ${stderr})` : ''}`;
  report.checks.push({ id: 'mcp-handshake', ok: false, message: what });
  report.fix =
    e.target.kind === 'http'
      ? 'check the URL: Warden serves MCP at /mcp'
      : 'run the command by hand and read what it prints';
  return finish(report, 'not_mcp', [what]);
}

/**
 * `warden stdio` given no WARDEN_TOKEN refuses to start: it serves the anonymous tier only
 * when its args ask for it (--anonymous), never as what a lost token falls back to. Said
 * plainly, with both ways out, rather than as a command that did not speak MCP.
 */
function refusedWithoutToken(report: ServerReport, e: Evidence): ServerReport {
  const reason = `the server refused to start without a token: ${anonymousReason(e.target, report.references)}, and warden stdio serves the anonymous tier only when its args ask for it with --anonymous`;
  report.checks.push({ id: 'token', ok: false, message: `no token (the process exited): ${reason}` });
  report.fix = `${anonymousFix(e.target, report.references)}; or, to serve the anonymous tier on purpose, add --anonymous to its args`;
  return finish(report, droppedCredential(e.target) ? 'unresolved' : 'rejected', [reason]);
}
