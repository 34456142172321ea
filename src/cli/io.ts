// Every Warden command prints through the same io and exits with the same codes as the gate.
export { bufferIo, EXIT, processIo, UsageError, type CliIo } from '@warden-mcp/gate/io';
