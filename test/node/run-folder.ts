import { rmSync } from 'node:fs';

/**
 * Global setup of both test projects: at the end of the run, the run's temporary folder (made in
 * vitest.config.ts) goes, with every data root and scratch file under it. Both projects name it so
 * that a run of either one alone cleans up too; the second removal finds nothing.
 */
export default function runFolder(): () => void {
  return () => {
    const folder = process.env.LPA_TEST_RUN_FOLDER;
    if (folder) rmSync(folder, { recursive: true, force: true });
  };
}
