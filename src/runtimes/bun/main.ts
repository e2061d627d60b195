/**
 * `npm run start:bun`: the same pipeline, handlers and storage modules on Bun, with Bun's own
 * SQLite and HTTP server.
 */
import { Database } from 'bun:sqlite';
import { join } from 'node:path';
import { startProcess } from '../../launcher/process-startup';
import { inProcessService } from '../in-process';
import { bunSql } from '../../../storage/sql/bun-sql';

startProcess(async (start) => {
  const database = new Database(join(start.storeDir, 'lpa-bun.sqlite'), { create: true, strict: true });
  start.onStop(() => database.close());
  const serve = await inProcessService(bunSql(database), start);
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: start.settings.port,
    fetch: (request, srv) => serve(request, srv.requestIP(request)?.address ?? 'unknown'),
  });
  start.onStop(() => void server.stop());
  return `Bun ${Bun.version}`;
});
