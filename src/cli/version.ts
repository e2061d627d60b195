import packageJson from '../../packages/cli/package.json' with { type: 'json' };

/**
 * The version of the `lpa` package (packages/cli), which is the service's (test/node/cli-package.test.ts
 * checks the two agree): `lpa --version` and the MCP server's name in its handshake.
 */
export const VERSION: string = packageJson.version;
