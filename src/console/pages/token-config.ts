import { html, type Html } from '../html.ts';

/**
 * Ready-to-paste client configuration for a freshly issued token: one snippet per
 * client, in the shapes `warden doctor --config` reads, and the doctor command.
 */
export function clientConfigs(mcpUrl: string, token: string, tier: string): Html {
  const bearer = `Bearer ${token}`;
  const json = (v: unknown) => JSON.stringify(v, null, 2);
  const snippets: { name: string; file: string; text: string }[] = [
    {
      name: 'Claude Code',
      file: '.mcp.json in your project',
      text: json({
        mcpServers: { warden: { type: 'http', url: mcpUrl, headers: { Authorization: bearer } } },
      }),
    },
    {
      name: 'Claude Desktop',
      file: 'claude_desktop_config.json (through the mcp-remote bridge)',
      text: json({
        mcpServers: {
          warden: {
            command: 'npx',
            args: ['-y', 'mcp-remote', mcpUrl, '--header', `Authorization: ${bearer}`],
          },
        },
      }),
    },
    {
      name: 'VS Code',
      file: '.vscode/mcp.json',
      text: json({ servers: { warden: { type: 'http', url: mcpUrl, headers: { Authorization: bearer } } } }),
    },
    {
      name: 'Cursor',
      file: '.cursor/mcp.json',
      text: json({ mcpServers: { warden: { url: mcpUrl, headers: { Authorization: bearer } } } }),
    },
  ];
  return html`<section aria-labelledby="configs">
    <h2 id="configs">Configure your agent</h2>
    ${snippets.map(
      (s) =>
        html`<h3>${s.name}</h3>
          <p class="hint">${s.file}</p>
          <pre><code>${s.text}</code></pre>`,
    )}
    <h3>Check it</h3>
    <p>
      The doctor connects as the agent would, and says which tier it got and why (run it from a clone of
      Warden):
    </p>
    <pre><code>./bin/warden.js doctor ${mcpUrl} --token ${token} --expect ${tier}</code></pre>
  </section>`;
}
