import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ONIG_WASM, onigWasm, writeOnigWasm } from '../src/views/markdown/onig-wasm.js';

const work = await mkdtemp(join(tmpdir(), 'cctrail-onig-'));
afterAll(() => rm(work, { recursive: true, force: true }), 0);

/** shiki's own copy of the engine's bytes (decoded from its base64 text). */
const shikiBytes = async () => new Uint8Array((await import('shiki/wasm')).wasmBinary);

describe("the highlighter's WebAssembly", () => {
  it('is read from the file the build writes: the bytes of shiki, not its module', async () => {
    const file = await writeOnigWasm(work);
    expect(file).toBe(join(work, ONIG_WASM));
    const loaded = await onigWasm(work);
    expect(loaded).toBeInstanceOf(Uint8Array);
    const bytes = new Uint8Array(loaded as Uint8Array);
    expect(Buffer.compare(bytes, await shikiBytes())).toBe(0);
    // What the engine loads from the file is a module it can instantiate.
    expect(WebAssembly.validate(bytes)).toBe(true);
  });

  it("falls back to shiki's module where there is no file (the sources)", async () => {
    const empty = join(work, 'empty');
    const loaded = await onigWasm(empty);
    expect(loaded).not.toBeInstanceOf(Uint8Array);
    expect(typeof (loaded as typeof import('shiki/wasm')).default).toBe('function');
  });
});
