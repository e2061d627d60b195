/**
 * Makes every file and folder this process creates from now on its user's alone (0600, 0700), and
 * every process it starts after this (workerd, Wrangler) inherits it: the umask narrows whatever mode
 * the creating code asks for, SQLite's and Miniflare's included, so nothing is readable by other users
 * even for the moment between a write and a chmod. The local services (./process-startup.ts) and
 * `npm run start:team` (scripts/start-team.mjs) call it before they touch their data root.
 */
export function keepFilesPrivate(): void {
  process.umask(0o077);
}
