// Preloaded (`node --require`) into `cctrail serve` and the builds it runs by the live benchmark (#29) when
// CCTRAIL_BENCH_MEMLOG names a folder: writes the process's `process.memoryUsage()` there every second, one JSON
// line per sample, to `<pid>.jsonl` (the command, `serve` or `report`, in each line). Bench-only: the CLI knows
// nothing of it.
const { appendFileSync } = require('node:fs');
const { join } = require('node:path');

const dir = process.env.CCTRAIL_BENCH_MEMLOG;
if (dir) {
  const file = join(dir, `${process.pid}.jsonl`);
  const command = process.argv[2] ?? '';
  const sample = () => {
    const m = process.memoryUsage();
    const line = {
      at: Date.now(),
      command,
      rss: m.rss,
      heapTotal: m.heapTotal,
      heapUsed: m.heapUsed,
      external: m.external,
      arrayBuffers: m.arrayBuffers,
    };
    try {
      appendFileSync(file, `${JSON.stringify(line)}\n`);
    } catch {}
  };
  sample();
  setInterval(sample, 1000).unref();
  process.on('exit', sample);
}
