import packageJson from '../../package.json' with { type: 'json' };

/** The package's version: `lpa --version` and the MCP server's name in its handshake. Bundled into dist/lpa.mjs with the rest. */
export const VERSION: string = packageJson.version;
