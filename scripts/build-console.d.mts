/** Types of scripts/build-console.mjs for the TypeScript that imports it (vitest.config.ts). */
export const ASSETS_MODULE: string;
export function consoleIsStale(): boolean;
export function buildConsole(): Promise<void>;
