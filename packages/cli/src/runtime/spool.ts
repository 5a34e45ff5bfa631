import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';

/**
 * A temporary folder for session files whose place is known only once every session is built (a stream's
 * sessions, whose `duplicateOf` may change; files of an archive whose names may shift): they are written here
 * during the run and copied where they belong after it, so memory stays bounded. Nothing is made until a file
 * is written into it.
 */
export class Spool {
  /** The folder, absolute. */
  readonly dir = join(tmpdir(), `cctrail-spool-${process.pid}-${randomBytes(4).toString('hex')}`);

  /** The path of the spooled file of a session (the writer makes the folder). */
  path(index: number): string {
    return join(this.dir, `${index}.json`);
  }

  /** Removes the folder and what is in it. */
  async remove(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }
}

/**
 * The text of a UTF-8 file, in pieces of about 1 MiB (a character is never split between two).
 *
 * @param path The file.
 */
export async function* fileText(path: string): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) {
    const text = decoder.write(chunk as Buffer);
    if (text !== '') yield text;
  }
  const rest = decoder.end();
  if (rest !== '') yield rest;
}
