import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The WebAssembly of the highlighter's regex engine (Oniguruma). shiki ships it inlined in a module
 * (`shiki/wasm`) whose top level decodes 620 KB of base64 text in JavaScript, character by character: 0.1–0.25 s
 * of CPU in every thread that loads the highlighter, against well under a millisecond to read the bytes from a
 * file. The package's build writes those bytes beside the compiled module (`writeOnigWasm`), and a bundle copies
 * them beside its chunks; the highlighter reads them there, and falls back to shiki's module where there is no
 * such file (the sources, run by the tests).
 */

/** The file the engine's bytes are written to, beside the module that loads them. */
export const ONIG_WASM = 'onig.wasm';

/** The folder of this module, compiled or bundled: where `onig.wasm` is looked for. */
const HERE = fileURLToPath(new URL('.', import.meta.url));

/** What shiki's regex engine is loaded from: the bytes, or shiki's module that inlines them. */
export type OnigWasm = Uint8Array | typeof import('shiki/wasm');

/**
 * The engine's WebAssembly: the bytes of `onig.wasm` in `dir` (by default this module's folder), else shiki's
 * module.
 *
 * @param dir The folder that may hold `onig.wasm`.
 */
export async function onigWasm(dir: string = HERE): Promise<OnigWasm> {
  try {
    return await readFile(join(dir, ONIG_WASM));
  } catch {
    return import('shiki/wasm');
  }
}

/**
 * Writes the engine's bytes into `dir` as `onig.wasm` (run by the package's build, into the folder of the
 * compiled module).
 *
 * @returns The path of the file.
 */
export async function writeOnigWasm(dir: string): Promise<string> {
  const { wasmBinary } = await import('shiki/wasm');
  const file = join(dir, ONIG_WASM);
  await writeFile(file, new Uint8Array(wasmBinary));
  return file;
}
