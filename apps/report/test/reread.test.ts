import { describe, expect, it } from 'vitest';
import { rereadsAfterCompactions } from '../src/views/reread.js';
import { claude, demoSession, result } from './helpers/demo.js';

describe('rereadsAfterCompactions', () => {
  it('finds files read before a compaction and again after it, with their estimated cost', () => {
    const [after] = rereadsAfterCompactions(demoSession());
    expect(after?.compaction).toBe('c1');
    expect(after?.epoch).toBe(1);
    expect(after?.files).toHaveLength(1);
    const file = after?.files[0];
    expect(file?.file).toBe('src/cart.ts');
    expect(file?.readsBefore).toBe(1);
    expect(file?.readsAfter).toBe(1);
    // the result text length / 4, rounded up
    expect(file?.tokens).toBeGreaterThan(1000);
    expect(after?.tokens).toBe(file?.tokens);
  });

  it('ignores files read only after the compaction, and reads on abandoned branches', () => {
    const s = demoSession();
    s.entries.push(
      claude(
        'n1',
        'a7',
        [{ type: 'tool_use', id: 'tn', name: 'Read', input: { file_path: 'src/new.ts' } }],
        s.entries[0]?.usage ?? (null as never),
        'mn',
        { epoch: 1 },
      ),
      result('n2', 'n1', 'tn', 'new file', false, { epoch: 1 }),
      claude(
        'n3',
        'a2',
        [{ type: 'tool_use', id: 'tx', name: 'Read', input: { file_path: 'src/cart.ts' } }],
        s.entries[0]?.usage ?? (null as never),
        'mx',
        { epoch: 1, active: false },
      ),
    );
    const [after] = rereadsAfterCompactions(s);
    expect(after?.files.map((f) => f.file)).toEqual(['src/cart.ts']);
    expect(after?.files[0]?.readsAfter).toBe(1);
  });

  it('returns nothing for a session without compactions', () => {
    const s = demoSession();
    s.compactions = [];
    expect(rereadsAfterCompactions(s)).toEqual([]);
  });
});
