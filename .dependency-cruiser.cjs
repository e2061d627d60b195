/**
 * The layers of LPA and which folder may import which (README, Architecture); `npm run check:layers`
 * fails on any import that breaks them. Type-only imports count. Tests, bench and soak are not checked:
 * they may reach into any layer.
 *
 *   entries ─▶ pipeline ─▶ handlers ─▶ store families ─▶ SQL
 *   beside every layer: the foundation; beside the pipeline and handlers: the host port
 */
const OURS = '^(src|storage|handlers|scripts|bin)/';
const ENTRIES = '^(src/runtimes|src/launcher|src/cli|scripts|bin)/';
const PIPELINE = '^src/(app[.]ts$|pipeline/|routes/|openapi/)';
const HANDLERS = '^(handlers|src/membership|src/jobs)/';
const STORAGE = '^storage/';
const SQL = '^storage/sql/';
const FOUNDATION = '^src/(errors/|shared/|schemas/|logs/|config[.]ts$)';
const HOST = '^src/host/';
const HOST_NODE = '^src/host/node/';
const CLI = '^src/cli/';
const MCP = '^src/cli/mcp/';
const CLI_BUT_MCP = '^src/cli/(?!mcp/)';
const CLI_SCHEMAS = ['^storage/.+/schema[^/]*[.]ts$', '^src/host/files-schema[.]ts$'];

/** `from` may import nothing of ours outside `allowed`. */
const onlyImports = (name, comment, from, allowed) => ({
  name,
  comment,
  severity: 'error',
  from: { path: from },
  to: { path: OURS, pathNot: allowed },
});

module.exports = {
  forbidden: [
    onlyImports('foundation', 'The foundation (errors, shared, schemas, logs, config) imports only the foundation.', FOUNDATION, [FOUNDATION]),
    onlyImports('host-port', 'The host port imports only the foundation; its Node side also the port it serves.', '^src/host/(?!node/)', [FOUNDATION, '^src/host/(?!node/)']),
    onlyImports('host-node', 'The Node side of the host port imports only the foundation and the host port.', HOST_NODE, [FOUNDATION, HOST]),
    onlyImports('sql', 'SQL is the bottom layer: it imports only itself and the foundation.', SQL, [SQL, FOUNDATION]),
    onlyImports(
      'storage',
      'Store families import only storage and the foundation: no handlers, pipeline, runtimes, jobs, membership, CLI or host.',
      STORAGE,
      [STORAGE, FOUNDATION],
    ),
    onlyImports(
      'handlers',
      'Handlers (and membership, jobs) import store families, the host port and the foundation; of the pipeline only the route declaration API and the OpenAPI document builder.',
      HANDLERS,
      [HANDLERS, STORAGE, FOUNDATION, '^src/host/(?!node/)', '^src/routes/define[.]ts$', '^src/openapi/document[.]ts$'],
    ),
    onlyImports('pipeline', 'The pipeline imports handlers, store families, the host port and the foundation; never an entry.', PIPELINE, [
      PIPELINE,
      HANDLERS,
      STORAGE,
      FOUNDATION,
      '^src/host/(?!node/)',
    ]),
    onlyImports(
      'cli',
      'The CLI talks to the service over HTTP: it imports the foundation, zod schemas (storage/**/schema*.ts and the automation files\' src/host/files-schema.ts) and the audit family\'s declarations (filters, actions and categories, actor types), and the offline audit verifier, which is pure hashing over an export file.',
      CLI_BUT_MCP,
      [CLI, FOUNDATION, ...CLI_SCHEMAS, '^storage/audit/(filters|actions|entry)[.]ts$', '^storage/audit/verify-export[.]ts$'],
    ),
    onlyImports(
      'cli-mcp',
      'The MCP server (src/cli/mcp) offers one tool per route: besides what the CLI may import, it reads the route table (and so the declarations behind it) and names tools with the OpenAPI operationId. It still calls the service only over HTTP; it reaches neither SQL nor the store.',
      MCP,
      [CLI, FOUNDATION, ...CLI_SCHEMAS, '^src/routes/(table|define)[.]ts$', '^src/openapi/document[.]ts$'],
    ),
    {
      name: 'sql-below-storage',
      comment: 'Only store families reach SQL, and entries, which hand the store its SqlDb.',
      severity: 'error',
      from: { pathNot: [STORAGE, ENTRIES] },
      to: { path: SQL },
    },
    {
      name: 'entries-on-top',
      comment: 'Nothing but an entry imports an entry (src/runtimes, src/launcher, src/cli, scripts); the worker entry re-exports StoreObject.',
      severity: 'error',
      from: { path: OURS, pathNot: ENTRIES },
      to: { path: ENTRIES },
    },
    {
      name: 'host-node-from-entries',
      comment: 'The Node side of the host port is loaded only by entries (and tests).',
      severity: 'error',
      from: { path: OURS, pathNot: [ENTRIES, HOST_NODE] },
      to: { path: HOST_NODE },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
  },
};
