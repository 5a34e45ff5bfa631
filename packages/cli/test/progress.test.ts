import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Io } from '../src/command-line/command.js';
import { progressBar } from '../src/terminal/progress.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('progressBar', () => {
  it('draws a full bar, never more, when more steps are done than it was told', () => {
    vi.useFakeTimers();
    const written: string[] = [];
    const stderr = Object.assign(
      { write: (text: string) => written.push(text) > 0 },
      { isTTY: true, columns: 120 },
    ) as unknown as Io['stderr'];
    const io = { stderr, stdout: stderr, env: {}, cwd: '/' } as Io;
    const bar = progressBar(io, 2, 'sessions');
    vi.advanceTimersByTime(2_000);
    for (let i = 0; i < 5; i++) {
      bar.tick(`s${i}`);
      vi.advanceTimersByTime(200);
    }
    bar.done();
    expect(written.some((t) => t.includes('5/2 sessions'))).toBe(true);
    expect(written.every((t) => !t.includes('█'.repeat(25)))).toBe(true);
  });
});
