/**
 * Counts the connections a front door refused over its cap and says so on stderr at most once a
 * minute: a flood is reported without a line per connection.
 */
export function refusalReport(maxConnections: number): { count(): void; stop(): void } {
  let refused = 0;
  const timer = setInterval(() => {
    if (refused > 0)
      console.error(
        `${refused} connections refused in the last minute: ${maxConnections} were open (the cap below the limit of open files)`,
      );
    refused = 0;
  }, 60_000);
  // Never what keeps a stopping process alive (Node and Deno timers both have unref).
  (timer as { unref?: () => void }).unref?.();
  return { count: () => void refused++, stop: () => clearInterval(timer) };
}
