/** One route of the host handler; each concern's module (disk, keys, files, logs) contributes its own. */
export interface HostRoute {
  method: string;
  pattern: RegExp;
  handle: (request: Request, groups: string[]) => Response | Promise<Response>;
}
