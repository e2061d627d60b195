import { Presets, SingleBar } from 'cli-progress';

export interface Progress {
  /** Work done so far, and the whole when it is known (or learnt late). */
  update(done: number, total?: number): void;
  stop(): void;
}

const SILENT: Progress = { update() {}, stop() {} };

/**
 * A progress bar on stderr while a person watches (a terminal); nothing at all when stderr is piped,
 * so that scripts read only the answer.
 */
function bar(format: string): Progress {
  if (!process.stderr.isTTY) return SILENT;
  const shown = new SingleBar(
    { format, stream: process.stderr, hideCursor: true, clearOnComplete: true },
    Presets.shades_classic,
  );
  let started = false;
  return {
    update(done, total) {
      if (!started) shown.start(total ?? 0, done);
      else {
        if (total !== undefined) shown.setTotal(total);
        shown.update(done);
      }
      started = true;
    },
    stop() {
      if (started) shown.stop();
    },
  };
}

/** Counted work: `label [====    ] 40/105 unit 0:02`. */
export const progress = (label: string, unit: string): Progress =>
  bar(`${label} [{bar}] {value}/{total} ${unit} {duration_formatted}`);

/** One long request the service does not report on: the bar shows the time it has taken so far. */
export async function whileWaiting<T>(label: string, work: Promise<T>): Promise<T> {
  const shown = bar(`${label}… {duration_formatted}`);
  shown.update(0);
  try {
    return await work;
  } finally {
    shown.stop();
  }
}
