import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startHttpTools } from '../../packages/gate/test/fixtures/compat/servers/http-tools.ts';
import { doctorJson } from './support.ts';

// What two published releases of a popular server did: an inputSchema without "type": "object".
const loose = {
  name: 'read_file',
  description: 'Read a file',
  inputSchema: { properties: { path: { type: 'string' } }, required: ['path'] },
};
const fine = { name: 'ping', description: 'Ping', inputSchema: { type: 'object', properties: {} } };

describe('a server whose tools are not valid MCP', () => {
  it('doctor lists the tools of such a server instead of failing on them', async () => {
    const server = await startHttpTools([loose, fine], 'tok');
    try {
      const { code, server: report } = await doctorJson([server.url, '--token', 'tok']);
      assert.equal(code, 0, JSON.stringify(report));
      assert.deepEqual([...report.tool_names].sort(), ['ping', 'read_file']);
    } finally {
      await server.close();
    }
  });
});
