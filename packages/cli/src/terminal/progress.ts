import type { Io } from '../command-line/command.js';

/** A progress display for a known number of steps. */
export interface Progress {
  /** Marks one more step done. */
  tick(label?: string): void;
  /** Removes the bar (if one was drawn). */
  done(): void;
}

const DELAY_MS = 1000;
const REDRAW_MS = 100;
const WIDTH = 24;

/**
 * A progress bar on stderr. It appears only when stderr is a terminal and the work is still running after
 * about a second, so short runs and pipes stay quiet. It is erased when done.
 *
 * @param io Where to draw (stderr) and the environment.
 * @param total Number of steps.
 * @param noun What is counted, e.g. `sessions`.
 */
export function progressBar(io: Io, total: number, noun: string): Progress {
  const stream = io.stderr;
  if (stream.isTTY !== true || total === 0) return { tick() {}, done() {} };
  const started = Date.now();
  let count = 0;
  let drawnAt = 0;
  let drawn = false;
  let label = '';
  const draw = () => {
    const filled = Math.min(WIDTH, Math.round((count / total) * WIDTH));
    const columns = stream.columns ?? 80;
    const text = `[${'█'.repeat(filled)}${'░'.repeat(WIDTH - filled)}] ${count}/${total} ${noun} ${label}`;
    stream.write(`\r\u001b[2K${text.slice(0, columns - 1)}`);
    drawn = true;
    drawnAt = Date.now();
  };
  return {
    tick(next) {
      count++;
      if (next !== undefined) label = next;
      const now = Date.now();
      if (now - started >= DELAY_MS && now - drawnAt >= REDRAW_MS) draw();
    },
    done() {
      if (drawn) stream.write('\r\u001b[2K');
    },
  };
}
