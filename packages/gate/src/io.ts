// The I/O pieces a host program shares with the gate: how a command prints, its exit codes,
// the error a user can fix, and a request body read under a bound.
export { bufferIo, EXIT, GATE_EXIT, processIo, UsageError, type CliIo } from './host/io.ts';
export { readBody } from './host/http-body.ts';
