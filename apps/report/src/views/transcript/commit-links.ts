import { type SafeHtml, trusted } from '../html/html.js';

/**
 * Commit SHAs in the output of `git commit` (`[main 1a2b3c4] message`, `[main (root-commit) 1a2b3c4] …`),
 * marked so that a report built with a repository URL (`--repo`) links them to the commit. The mark is a
 * `<span class="sha" data-sha>` in the escaped output; the page turns it into a link to
 * `commitBase(repo) + sha` (the repository is a page setting, so cached transcripts need no rebuild).
 */

/** A `git commit` summary line, in escaped HTML (branch names may hold `&amp;`-style entities). */
const COMMIT_LINE = /(?<=^|>)(\[[^\]\s<>]+(?: \(root-commit\))? )([0-9a-f]{7,40})\]/gm;

/** True when a shell command runs `git commit`. */
export function isGitCommit(command: string): boolean {
  return /\bgit\b(?:\s+-[Cc]\s+\S+)*\s+commit\b/.test(command);
}

/** Marks the SHAs of `git commit` summary lines in rendered (escaped) output. */
export function markCommitShas(output: SafeHtml): SafeHtml {
  return trusted(
    output.value.replace(
      COMMIT_LINE,
      (_all, head: string, sha: string) => `${head}<span class="sha" data-sha="${sha}">${sha}</span>]`,
    ),
  );
}

/**
 * What a commit's link starts with (`<repo>/commit/`: GitHub, GitLab and Gitea all serve it), or null when the
 * URL is not a plain http(s) URL.
 */
export function commitBase(repo: string): string | null {
  if (!/^https?:\/\/[^\s"'<>]+$/i.test(repo)) return null;
  return `${repo.replace(/\/+$/, '').replace(/\.git$/, '')}/commit/`;
}
