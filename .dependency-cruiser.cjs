/**
 * The layers of LPA, one folder each, and which folder may import which (docs/architecture.md);
 * `npm run check:layers` fails on any import that breaks them. Type-only imports count. Tests, bench
 * and soak are not checked: they may reach into any layer.
 *
 *   src/runtimes ─▶ src/object ─▶ src/teams ─▶ src/pipeline ─▶ handlers ─▶ storage (through its client) ─▶ storage/sql
 *   handlers ─▶ src/contracts ◀─ src/openapi, src/cli (route contracts: schemas only)
 *   src/console ┄▶ src/contracts (types only: the web console, a browser client of the API whose calls
 *   the contracts type; its built files are served by src/pipeline/console.ts)
 *   beside them: src/shared (imports nothing of ours), src/host (the machine's port)
 */
const OURS = '^(src|storage|handlers|scripts|bin)/';
const SHARED = '^src/shared/';
const HOST_PORT = '^src/host/(?!node/)';
const STORAGE_SCHEMAS = '^storage/.+/schema[^/]*[.]ts$';
/** What the route contracts are made of: zod schemas and the names they take. */
const CONTRACT_PARTS = [
  SHARED,
  STORAGE_SCHEMAS,
  '^storage/audit/(actions|filters)[.]ts$',
  '^src/host/files-schema[.]ts$',
];

/** A folder may import nothing of ours outside `allowed` (itself always). */
const layer = (name, comment, folder, allowed) => ({
  name,
  comment,
  severity: 'error',
  from: { path: folder },
  to: { path: OURS, pathNot: [folder, ...allowed] },
});

module.exports = {
  forbidden: [
    layer(
      'shared',
      'src/shared (errors, schemas, log formats, config, small helpers) imports nothing else of ours.',
      SHARED,
      [],
    ),
    layer(
      'host-port',
      'The host port (src/host) declares what LPA needs of the machine; its Node side implements it.',
      '^src/host/',
      [SHARED],
    ),
    layer('sql', 'storage/sql is the bottom layer.', '^storage/sql/', [SHARED]),
    layer(
      'storage',
      'Everything that runs inside the Durable Object: families, migrations, SQL, group commit, jobs, start-up.',
      '^storage/',
      [SHARED, HOST_PORT],
    ),
    layer(
      'contracts',
      'Route contracts: what each route takes and answers, declared once; zod schemas and audit action names only.',
      '^src/contracts/',
      CONTRACT_PARTS,
    ),
    layer(
      'handlers',
      'Handlers implement the route contracts over the store client, the host port and the shared foundation.',
      '^handlers/',
      ['^src/contracts/', '^src/openapi/document[.]ts$', '^storage/', HOST_PORT, SHARED],
    ),
    layer(
      'object',
      "A store's object: the store and the pipeline over it (the same class for the local store and each team's), and the Durable Object that holds it; it composes the layers below, hands the store its SqlDb, and is composed only by the entries.",
      '^src/object/',
      [
        SHARED,
        HOST_PORT,
        '^storage/',
        '^handlers/(index|context|implement)[.]ts$',
        '^src/contracts/',
        '^src/pipeline/',
        '^src/teams/',
      ],
    ),
    layer(
      'teams',
      "The team service's own pieces: its front (operator, team routing, its OpenAPI document), the team routes, roles, Cloudflare Access identity, key wrapping (the vault's sealing serves the key-encryption key), a team's host port. It reaches the store only through its client.",
      '^src/teams/',
      [
        SHARED,
        HOST_PORT,
        STORAGE_SCHEMAS,
        '^storage/(client|vault)[.]ts$',
        '^handlers/',
        '^src/contracts/',
        '^src/pipeline/',
        // The team service's OpenAPI document (src/teams/openapi.ts), built as handlers build the local one.
        '^src/openapi/document[.]ts$',
      ],
    ),
    layer('openapi', 'The OpenAPI document, derived from the route contracts.', '^src/openapi/', [
      '^src/contracts/',
      SHARED,
    ]),
    layer(
      'pipeline',
      "The request pipeline: guards, authentication, routing, validation, the answer (and the console's built files); it runs the routes it is given, and reaches the store only through its client.",
      '^src/pipeline/',
      [
        '^handlers/(context|implement)[.]ts$',
        '^storage/client[.]ts$',
        '^src/contracts/define[.]ts$',
        HOST_PORT,
        SHARED,
        '^src/console/(asset|assets[.]generated)[.]ts$',
      ],
    ),
    layer(
      'console',
      'The web console runs in the browser and talks to the API over HTTP: the route contracts and their schemas as types (console-types-only), the scope names, nothing else.',
      '^src/console/',
      ['^src/contracts/', ...CONTRACT_PARTS],
    ),
    {
      name: 'console-types-only',
      comment:
        'The console names its routes through the contracts and types its calls from their schemas, imported as types only (`import type`), so that neither they nor zod reach its bundle; the scope names are its one value import of ours.',
      severity: 'error',
      from: { path: '^src/console/' },
      to: {
        path: ['^src/contracts/', ...CONTRACT_PARTS, '^node_modules/zod/'],
        pathNot: '^src/shared/scopes[.]ts$',
        dependencyTypesNot: ['type-only', 'type-import'],
      },
    },
    layer(
      'cli',
      'The CLI and the MCP server call the service over HTTP through the route contracts: zod schemas and the offline audit verifier, never the store.',
      '^src/cli/',
      [
        SHARED,
        STORAGE_SCHEMAS,
        '^src/host/files-schema[.]ts$',
        '^storage/audit/(filters|actions|entry)[.]ts$',
        '^storage/audit/verify-export[.]ts$',
        '^src/contracts/',
        '^src/openapi/document[.]ts$',
      ],
    ),
    {
      name: 'sql-below-storage',
      comment: "Only storage reaches SQL, and the runtimes and the store's object, which hand the store its SqlDb.",
      severity: 'error',
      from: { pathNot: ['^storage/', '^src/runtimes/', '^src/object/'] },
      to: { path: '^storage/sql/' },
    },
    {
      name: 'entries-on-top',
      comment: 'Nothing but an entry imports an entry (src/runtimes, src/cli, scripts, bin).',
      severity: 'error',
      from: { path: OURS, pathNot: '^(src/runtimes|src/cli|scripts|bin)/' },
      to: { path: '^(src/runtimes|src/cli|scripts|bin)/' },
    },
    {
      name: 'host-node-from-runtimes',
      comment: 'The Node side of the host port is loaded only by the runtimes (and tests).',
      severity: 'error',
      from: { path: OURS, pathNot: ['^src/runtimes/', '^src/host/node/'] },
      to: { path: '^src/host/node/' },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
  },
};
