/**
 * Who a process is, beyond its id: process ids are reused (after a reboot, in every container, where the first
 * process is always 1), so a lock that names only a process id can name a stranger. A process is named by its id,
 * the machine, the boot of that machine, and when it started; where the system does not say (no `/proc`), only
 * the id and the machine are known and the identity is weaker.
 */

import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { isRunning } from '@cctrail/core/node';

/** The identity of a process, as a lock file records it. */
export interface ProcessIdentity {
  pid: number;
  host: string;
  /** The kernel's id of the current boot (`/proc/sys/kernel/random/boot_id`), or null where unknown. */
  boot: string | null;
  /** When the process started, in clock ticks since boot (`/proc/<pid>/stat`), or null where unknown. */
  start: string | null;
  /** The script the process runs (its `argv[1]`), or null where unknown. */
  script: string | null;
}

/** The identity of this process. */
export function ownIdentity(): ProcessIdentity {
  return {
    pid: process.pid,
    host: hostname(),
    boot: bootId(),
    start: startTicks(process.pid),
    script: process.argv[1] ?? null,
  };
}

/**
 * Whether the process a lock names is still running: same machine, same boot, a live process with that id that
 * started at the recorded time and runs the recorded script. A record without a start time (written where the
 * system does not say, or by an older cctrail) names a live run when its id is alive and is neither this process
 * nor the first one (which, in a container, every run is).
 *
 * @param owner The recorded identity.
 * @param self This process (`ownIdentity()`).
 */
export function isAlive(owner: ProcessIdentity, self: ProcessIdentity): boolean {
  if (owner.host !== self.host) return false;
  if (owner.boot !== null && self.boot !== null && owner.boot !== self.boot) return false;
  if (owner.start === null) return owner.pid !== self.pid && owner.pid !== 1 && isRunning(owner.pid);
  if (!isRunning(owner.pid)) return false;
  const start = startTicks(owner.pid);
  if (start !== owner.start) return false;
  return owner.script === null || commandLine(owner.pid)?.includes(owner.script) !== false;
}

/** The boot id of this machine, or null where the system does not give it. */
function bootId(): string | null {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || null;
  } catch {
    return null;
  }
}

/** When a process started (field 22 of `/proc/<pid>/stat`), or null where unknown. */
function startTicks(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces and parentheses: count after the last.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? null;
  } catch {
    return null;
  }
}

/** The arguments a process was started with, or null where unknown. */
function commandLine(pid: number): string[] | null {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return null;
  }
}
