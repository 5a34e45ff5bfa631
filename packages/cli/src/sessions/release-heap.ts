import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collect: (() => void) | null = null;

/**
 * Collects the garbage of this thread's heap at once. After a huge session is written (built in this thread,
 * hundreds of MB), its memory is otherwise freed only when the heap next fills up: a report would bundle and
 * render its site on top of it.
 */
export function releaseHeap(): void {
  if (collect === null) {
    // Exposes `gc` to new contexts only: this process's own globals stay as they are.
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  }
  collect();
}
