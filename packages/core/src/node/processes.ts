/**
 * Whether a process with this id is running on this machine: what tells a temporary file of a run that is still
 * writing it (`<name>.tmp-<pid>`) from one an interrupted run left behind.
 *
 * @param pid A process id.
 */
export function isRunning(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
