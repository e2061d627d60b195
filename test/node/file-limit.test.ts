import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { processTree } from './process-tree';
import { RUNTIMES, startService } from './service';

/** The soft and hard limits of open files of a process, from /proc. */
function fileLimits(pid: number): { soft: string; hard: string } {
  const line = readFileSync(`/proc/${pid}/limits`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('Max open files'))!;
  const [soft, hard] = line.replace('Max open files', '').trim().split(/\s+/) as [string, string];
  return { soft, hard };
}

describe.runIf(process.platform === 'linux')('the limit of open files', () => {
  it.each(RUNTIMES)(
    'is raised to the hard limit by the process that serves HTTP on %s, started with a soft limit of 256',
    async (runtime) => {
      const service = await startService(runtime, undefined, {}, { softFileLimit: 256 });
      try {
        const launcher = service.process.pid!;
        // Under workerd the launcher (Node) serves only the host socket; workerd, its child, serves HTTP.
        const server =
          runtime === 'workerd'
            ? processTree(launcher).find((pid) =>
                readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('workerd\0serve'),
              )!
            : launcher;
        expect(server).toBeDefined();
        const { soft, hard } = fileLimits(server);
        expect(soft).toBe(hard);
        expect(soft).not.toBe('256');
      } finally {
        expect(await service.stop('SIGTERM')).toBe(0);
      }
    },
  );
});
