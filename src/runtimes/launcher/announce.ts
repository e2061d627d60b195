import { appendLogLine } from '../../host/node/logs';
import type { LaunchSettings } from './settings';

/**
 * What every entry (workerd or Bun) says when it is ready and when it stops: to the terminal, and
 * to the core log. The configuration is logged without secrets: where the admin token comes from,
 * never the token or its hash.
 */
export function announceStart(settings: LaunchSettings, version: string, runtime: string, readyMs: number): void {
  const url = `http://127.0.0.1:${settings.port}`;
  console.log(`LPA ${version} (${runtime}) listening on ${url} (ready in ${Math.round(readyMs)} ms)`);
  console.log(`data root: ${settings.dataRoot}`);
  console.log(
    settings.adminTokenFile ? `admin token: in ${settings.adminTokenFile}` : 'admin token: from LPA_ADMIN_TOKEN',
  );
  if (settings.team) console.log(`team: ${settings.team.url} (machine ${settings.team.machineId})`);
  coreLog(settings, 'service started', {
    version,
    runtime,
    url,
    data_root: settings.dataRoot,
    admin_from: settings.adminTokenFile ? 'file' : 'environment',
    allowed_origins: settings.allowedOrigins || 'none',
    membership: settings.accountUrl ? 'server' : 'local',
    team: settings.team?.url ?? 'none',
    ready_ms: Math.round(readyMs),
  });
}

export function announceStop(settings: LaunchSettings, reason: string, level: 'info' | 'error' = 'info'): void {
  coreLog(settings, 'service stopped', { reason }, level);
}

function coreLog(
  settings: LaunchSettings,
  message: string,
  fields: Record<string, string | number>,
  level: 'info' | 'error' = 'info',
): void {
  try {
    appendLogLine(settings.dataRoot, 'core', message, { level, fields });
  } catch (error) {
    // The service runs without its core log rather than not at all; core status reports the folder.
    console.error(`could not write the core log: ${(error as Error).message}`);
  }
}
