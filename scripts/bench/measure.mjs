// Measuring helpers for the benchmarks: wall time and peak RSS of a child process, medians.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Peak resident set size of a running process (VmHWM), in bytes, or 0 when it cannot be read. */
function highWaterMark(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
    return kb ? Number(kb) * 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * Runs a command to its end: wall time in ms, peak RSS in bytes (polled from /proc every 10 ms; the kernel keeps
 * the high-water mark, so only the last few ms can be missed), exit code, and output.
 */
export function run(command, args, { env = {}, cwd } = {}) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(command, args, {
      env: { ...process.env, ...env },
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let peak = 0;
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      if (stdout.length < 1e7) stdout += d;
    });
    child.stderr.on('data', (d) => {
      if (stderr.length < 1e6) stderr += d;
    });
    const timer = setInterval(() => {
      peak = Math.max(peak, highWaterMark(child.pid));
    }, 10);
    child.on('close', (code) => {
      clearInterval(timer);
      resolve({ ms: performance.now() - started, peakRss: peak, code, stdout, stderr });
    });
  });
}

/** Median of numbers. */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** "median (min–max)" with a unit formatter. */
export function spread(values, format) {
  return `${format(median(values))} (${format(Math.min(...values))}–${format(Math.max(...values))})`;
}

export const mb = (bytes) => `${(bytes / 1048576).toFixed(0)} MiB`;
export const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;
