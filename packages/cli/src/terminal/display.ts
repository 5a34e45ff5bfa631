import { basename, dirname, relative, sep } from 'node:path';

/**
 * The path shown in output for a file: relative to the input root, `/`-separated.
 *
 * @param root The input root (see `selectSessions`).
 * @param absolutePath The file.
 */
export function displayPath(root: string, absolutePath: string): string {
  const rel = relative(root, absolutePath);
  return (rel === '' ? basename(absolutePath) : rel).split(sep).join('/');
}

/**
 * The folder output paths are relative to, so they read `<project>/<file>`: a projects folder itself, the
 * parent of a project folder or of a session file's project; the common part of several inputs.
 *
 * @param inputs The input paths, absolute.
 * @param projectDirs The project folders discovery found.
 */
export function displayRoot(inputs: readonly string[], projectDirs: readonly string[]): string {
  const projects = new Set(projectDirs);
  const bases = inputs.map((input) => {
    if (input.endsWith('.jsonl')) {
      const parent = dirname(input);
      // `<project>/<session>/subagents/agent-….jsonl` given directly.
      return basename(parent) === 'subagents' ? dirname(dirname(dirname(parent))) : dirname(parent);
    }
    return projects.has(input) ? dirname(input) : input;
  });
  let common = bases[0]!.split(sep);
  for (const base of bases.slice(1)) {
    const parts = base.split(sep);
    let i = 0;
    while (i < common.length && i < parts.length && common[i] === parts[i]) i++;
    common = common.slice(0, i);
  }
  return common.join(sep) || sep;
}
