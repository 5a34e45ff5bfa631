import { readFileSync } from 'node:fs';
import type { ArchiveIndex, Session } from '../views/model.js';

/**
 * The one way data enters the report: `index.json` and session files of an archive folder, checked against
 * the core schema (version 1). Problems are returned as messages, never thrown, so a bad file is listed with
 * its problem instead of breaking the build.
 */

/** A value read from a file, or the reasons it could not be used. */
export type Loaded<T> = { ok: true; value: T } | { ok: false; errors: string[] };

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Checks the parts of an `ArchiveIndex` the report relies on. Returns the problems found (empty when valid). */
export function checkIndex(value: unknown): string[] {
  const errors: string[] = [];
  if (!isObject(value)) return ['index.json is not a JSON object'];
  if (value.schemaVersion !== 1)
    errors.push(`unsupported schemaVersion ${JSON.stringify(value.schemaVersion)}`);
  if (!Array.isArray(value.projects)) return [...errors, 'projects is not an array'];
  for (const [i, p] of value.projects.entries()) {
    if (!isObject(p)) {
      errors.push(`projects[${i}] is not an object`);
      continue;
    }
    if (typeof p.id !== 'string') errors.push(`projects[${i}].id is not a string`);
    if (!Array.isArray(p.sessions)) {
      errors.push(`projects[${i}].sessions is not an array`);
      continue;
    }
    for (const [j, s] of p.sessions.entries()) {
      if (!isObject(s) || typeof s.id !== 'string' || typeof s.file !== 'string')
        errors.push(`projects[${i}].sessions[${j}] needs string id and file`);
    }
  }
  return errors;
}

/** Checks the parts of a `Session` the report relies on. Returns the problems found (empty when valid). */
export function checkSession(value: unknown): string[] {
  if (!isObject(value)) return ['session file is not a JSON object'];
  const errors: string[] = [];
  if (value.schemaVersion !== 1)
    errors.push(`unsupported schemaVersion ${JSON.stringify(value.schemaVersion)}`);
  if (typeof value.id !== 'string') errors.push('id is not a string');
  for (const key of [
    'entries',
    'branchPoints',
    'branches',
    'sidechains',
    'compactions',
    'epochs',
    'tools',
    'diagnostics',
  ]) {
    if (!Array.isArray(value[key])) errors.push(`${key} is not an array`);
  }
  if (Array.isArray(value.entries)) {
    const bad = value.entries.findIndex(
      (e) =>
        !isObject(e) || typeof e.uuid !== 'string' || !Array.isArray(e.content) || typeof e.kind !== 'string',
    );
    if (bad >= 0) errors.push(`entries[${bad}] lacks uuid, kind or content`);
  }
  if (!isObject(value.usage)) errors.push('usage is not an object');
  return errors;
}

function readJson(file: string): Loaded<unknown> {
  try {
    return { ok: true, value: JSON.parse(readFileSync(file, 'utf8')) };
  } catch (error) {
    return { ok: false, errors: [`cannot read ${file}: ${(error as Error).message}`] };
  }
}

/** Reads and checks `index.json`. */
export function loadIndex(file: string): Loaded<ArchiveIndex> {
  const read = readJson(file);
  if (!read.ok) return read;
  const errors = checkIndex(read.value);
  return errors.length > 0 ? { ok: false, errors } : { ok: true, value: read.value as ArchiveIndex };
}

/** Reads and checks one session file. */
export function loadSession(file: string): Loaded<Session> {
  const read = readJson(file);
  if (!read.ok) return read;
  const errors = checkSession(read.value);
  return errors.length > 0 ? { ok: false, errors } : { ok: true, value: read.value as Session };
}
