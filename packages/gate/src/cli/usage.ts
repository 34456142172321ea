// Every command's help text in one small module: `warden-gate --help` and the command
// tables read these without loading the commands (or Ajv, or the MCP client).

export const ACCEPT_USAGE = `Usage: warden-gate accept (--url URL [--header "K: V"]... | --manifest FILE | -- COMMAND ARGS...
                          | --config FILE --server NAME [--input ID=VALUE]... [--offline])
                          [--lock FILE] [--tool NAME[@NEWHASH]]... [--item KIND:NAME[@NEWHASH]]... [--all] [--reason TEXT]
                          [--calls calls.jsonl] [--strict-descriptions] [--strict-open-objects] [--timeout SECONDS]

Blesses changes into the lock. Compatible changes are accepted automatically; a breaking or
unknown change only when named, ideally bound to the reviewed new hash: --tool NAME@sha256:...
for a tool, --item KIND:NAME@sha256:... for a prompt, resource, resource-template or skill, and
--item instructions@..., server@... or launch@... for those of a server. --all accepts every
pending change at once (a large upgrade, reviewed as a whole) and needs --reason, the one reason
recorded with each of them; with no --tool, --item or --all, only the compatible changes are
taken into the lock, one step a CI job can run. Each acceptance is recorded in the lock's audit trail with the old and new
hashes, so an approval never carries over to a different change. Exit 0 when nothing is left
pending, 1 or 2 while a breaking or unknown change is, 3 on an error (a hash that no longer
matches the reviewed one, an unreadable lock or source).
--timeout SECONDS (default 15) bounds a live server's start and initialize, then each list
request; on expiry, or whenever the run ends, the server and every process it started are
stopped (exit 3).
`;

export const CHECK_USAGE = `Usage: warden-gate check (--url URL [--header "K: V"]... | --manifest FILE | -- COMMAND ARGS...
                          | --config FILE [--server NAME] [--input ID=VALUE]... [--offline])
                         [--lock FILE] [--calls calls.jsonl] [--strict-descriptions] [--strict-open-objects]
                         [--strict-conformance] [--allow-unknown] [--json | --format text|json|markdown|github|sarif|junit]
                         [--verbose] [--report FORMAT=FILE]... [--timeout SECONDS] [--update-lock [--reason TEXT]]
                         [--config-file FILE] [--fail-on error|warning|info]

Compares the live manifest with the lock. Exit 0 identical or compatible, 1 breaking,
2 unknown (fails closed; --allow-unknown lets unknown pass, never a disagreement), 3 error
(bad options, unreadable files, a server that cannot be started or reached).
Every finding has a level: error (breaking, unknown), warning (shown, passes), info (compatible,
shown with --verbose). warden-gate.config.json beside the lock (or --config-file FILE) sets a
level per rule ("off" drops it), exceptions with a reason and an expiry date (one past its date
fails the run, exit 1, naming it) and failOn; --fail-on warning makes a warning fail (exit 1).
The report lists changed items breaking first, each with every finding that is not compatible
(--verbose lists the compatible ones too) and the exact accept command, and ends with a summary
line.
A changed tool that is not valid MCP is compared as served and reported (tool-not-conformant);
--strict-conformance makes any such tool unknown, changed or not.
--report FORMAT=FILE (repeatable) also writes the same result in another format to FILE, from
the same connection; each file is replaced whole, never left half-written.
--config FILE checks every server of a client configuration (Claude Desktop, Claude Code,
Cursor, VS Code) against the lock, each under its name, and how each is started; one exit code
for the file. A server that cannot be started or reached is reported with its cause, and makes
the exit an error. --server NAME checks that one; --input fills VS Code's \${input:ID};
--offline never asks the npm registry which version an npx-style launch resolves to.
--timeout SECONDS (default 15) bounds a live server's start and initialize, then each list
request; on expiry, or whenever the run ends, the server and every process it started are
stopped (exit 3).
--update-lock takes the change into the lock when, and only when, it is identical or compatible
(new items, surfaces not pinned before), each recorded in the audit trail with --reason TEXT
(default: "compatible change taken in by check --update-lock"), and says what it took in one
line on stderr; a breaking or unknown change leaves the lock untouched and exits as without it.
`;

export const DIFF_USAGE = `Usage: warden-gate diff OLD NEW [--calls calls.jsonl] [--strict-descriptions] [--strict-open-objects] [--strict-conformance] [--allow-unknown]
                       [--json | --format text|json|markdown|github|sarif|junit] [--verbose] [--report FORMAT=FILE]...
                       [--config-file FILE] [--fail-on error|warning|info]

OLD and NEW are each a tools/list result ({"tools": [...]}), a snapshot, or a Warden lockfile;
REF:PATH reads the file at a git revision (origin/main:mcp-lock.json, HEAD~1:./tools.json)
when no file of that name exists.
Exit codes as check's: 0 pass, 1 breaking, 2 unknown, 3 error.
--report FORMAT=FILE (repeatable) also writes the same result in another format to FILE.
Levels as check's; the configuration is warden-gate.config.json in the working directory, or
--config-file FILE.
`;

export const PIN_USAGE = `Usage: warden-gate pin (--url URL [--header "K: V"]... | --manifest FILE | -- COMMAND ARGS...) [--lock mcp-lock.json] [--force] [--timeout SECONDS]
       warden-gate pin --config FILE [--server NAME] [--input ID=VALUE]... [--offline] [--lock mcp-lock.json] [--force] [--timeout SECONDS]

Writes a lockfile holding, per tool, the canonical hash and the whole definition.
An existing lock is only replaced with --force (use "warden-gate accept" to bless a change).
Tools that are not valid MCP (an inputSchema without "type": "object", ...) are pinned as
served, with a one-line note each.
--config FILE pins every server of a client configuration under its name, with how it is
started (command and args, or URL; never header or environment values) and, for an npx-style
command, the package version the registry resolves it to (not looked up with --offline). A
package started without an exact version is reported (launch-unpinned). --server NAME pins that
one server and keeps the lock's others. Exit 0 pinned, 3 on an error.
--timeout SECONDS (default 15) bounds a live server's start and initialize, then each list
request; on expiry, or whenever the run ends, the server and every process it started are
stopped (exit 3).
`;

export const PROXY_USAGE = `Usage: warden-gate proxy [--lock mcp-lock.json] [--calls calls.jsonl] [--strict-descriptions] [--strict-open-objects] [--timeout SECONDS] -- COMMAND ARGS...
       warden-gate proxy --url URL [--header "K: V"]... [--port N] [--lock mcp-lock.json] [--calls calls.jsonl] [--strict-descriptions] [--strict-open-objects] [--timeout SECONDS]

Sits between an agent and an MCP server. With -- COMMAND, the agent speaks on this process's
stdin/stdout to a stdio server. With --url, the proxy serves Streamable HTTP on
http://127.0.0.1:PORT/mcp (--port, default: any free port, printed on stderr) for either
protocol era (2025-11-25 sessions, 2026-07-28 stateless) and forwards to the remote server,
sending --header values upstream; the agent's own credentials and cookies are never passed on.
Every tools/call is recorded to --calls (JSONL, for replay). Tools whose change against the lock
is breaking or unknown are withheld from tools/list and refused if called (the server never sees
the call); a call of a locked tool no tools/list has shown yet makes the proxy list the tools
itself first, and is refused only if the server will not list it. Compatible changes pass
silently. JSON-RPC batches are judged element by element under 2025-03-26 and refused as a
whole under later revisions. Notes about withheld tools, naming the rule that made each one
break, go to stderr; stdout carries only the protocol (stdio). Exit 0 when the server ends
cleanly (or on SIGINT/SIGTERM), 3 when it cannot be started or ends in failure, or on an error.
--timeout SECONDS (default 15) bounds a stdio server's answer to initialize (past it, the agent
gets an error, the server is stopped, exit 3) and each page of a listing the proxy makes itself.
A stdio server runs in a process group of its own: when the proxy ends (the agent gone, a
signal, the server failed) it and every process it started are stopped.
`;
