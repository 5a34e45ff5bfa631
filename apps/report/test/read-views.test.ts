import { activeEntries } from '@cctrail/core';
import { describe, expect, it } from 'vitest';
import { runOutcome } from '../src/views/agents/agent-status.js';
import { agentRunOf, aggregateAgents } from '../src/views/agents/agents.js';
import { html } from '../src/views/html/html.js';
import type { Session, Sidechain } from '../src/views/model.js';
import { decodePostings } from '../src/views/search/search-codec.js';
import { readPiece } from '../src/views/search/search-piece.js';
import { entrySearchText, searchPiece } from '../src/views/search/search-text.js';
import { commandParts, renderCommandText } from '../src/views/transcript/command-text.js';
import { commitBase, isGitCommit, markCommitShas } from '../src/views/transcript/commit-links.js';
import { outlinePrompts, renderOutline } from '../src/views/transcript/prompt-outline.js';
import { readRange, toolView } from '../src/views/transcript/tool-views.js';
import { demoSession, entry } from './helpers/demo.js';

const HOSTILE = '<img src=x onerror=alert(1)>';

describe('tools as people read them', () => {
  it('shows an edit as a diff with its path, every value escaped', () => {
    const v = toolView('Edit', {
      file_path: `src/${HOSTILE}.ts`,
      old_string: 'a\nb\n',
      new_string: 'a\nc\n',
    });
    expect(v?.open).toBe(true);
    const out = v?.body.value ?? '';
    expect(out).toContain('<span class="diff__same">  a\n</span>');
    expect(out).toContain('<span class="diff__del">- b\n</span>');
    expect(out).toContain('<span class="diff__add">+ c\n</span>');
    expect(out).not.toContain('<img');
  });

  it('shows MultiEdit, Write, TodoWrite, Bash, Read, WebFetch, WebSearch and Task/Agent calls', () => {
    const edits = toolView('MultiEdit', {
      file_path: 'a.ts',
      edits: [
        { old_string: 'x', new_string: 'y' },
        { old_string: 'p', new_string: 'q' },
      ],
    });
    expect(edits?.body.value).toContain('2 edits');
    expect(toolView('Write', { file_path: 'b.md', content: '# hi' })?.body.value).toContain(
      '<code>b.md</code>',
    );
    const todos = toolView('TodoWrite', {
      todos: [
        { content: 'Write tests', status: 'completed' },
        { content: `Fix ${HOSTILE}`, status: 'in_progress' },
      ],
    })?.body.value;
    expect(todos).toContain('todo--completed');
    expect(todos).toContain('todo--in_progress');
    expect(todos).not.toContain('<img');
    expect(toolView('Bash', { command: 'pnpm test', description: 'Run tests' })?.body.value).toMatch(
      /<pre class="code cmd">.*\$ .*pnpm test<\/pre>/,
    );
    expect(readRange({ offset: 10, limit: 50 })).toBe('lines 10–59');
    expect(toolView('Read', { file_path: 'c.ts' })?.body.value).toContain('whole file');
    expect(toolView('WebFetch', { url: 'https://example.com/x', prompt: 'p' })?.body.value).toContain(
      '<a href="https://example.com/x" rel="noopener noreferrer nofollow">',
    );
    expect(toolView('WebFetch', { url: 'javascript:alert(1)' })?.body.value).not.toContain('<a ');
    expect(toolView('WebSearch', { query: 'vitest' })?.body.value).toContain('<q>vitest</q>');
    expect(toolView('Agent', { subagent_type: 'Explore', prompt: 'look' })?.body.value).toContain(
      '<strong>Explore</strong>',
    );
  });

  it('keeps the generic view for unknown tools and unexpected shapes', () => {
    expect(toolView('mcp__x__y', { a: 1 })).toBeNull();
    expect(toolView('Edit', { file_path: 'a' })).toBeNull();
    expect(toolView('TodoWrite', { todos: [1] })).toBeNull();
    expect(toolView('constructor', {})).toBeNull();
  });
});

describe('slash commands and git commits', () => {
  it('renders a slash command and its output as a command, not XML', () => {
    const text =
      '<command-name>/mcp</command-name>\n<command-message>mcp</command-message>\n<command-args></command-args>';
    expect(renderCommandText(text)?.value).toBe('<p class="slash"><code>/mcp</code></p>');
    const out = renderCommandText(
      `<local-command-stdout>No MCP servers ${HOSTILE}</local-command-stdout>`,
    )?.value;
    expect(out).toContain('No MCP servers &lt;img');
    expect(commandParts('Please run <command-name>/x</command-name>')).toBeNull();
    expect(renderCommandText('<bash-input>ls</bash-input>')?.value).toContain('! </span>ls</pre>');
  });

  it('marks the SHAs of git commit summaries, and links only to http(s) repositories', () => {
    expect(isGitCommit('git add -A && git commit -m "x"')).toBe(true);
    expect(isGitCommit('git -C repo commit -m x')).toBe(true);
    expect(isGitCommit('git log')).toBe(false);
    const marked = markCommitShas(html`<pre>[main 1a2b3c4] Fix it\n 1 file changed</pre>`).value;
    expect(marked).toContain('[main <span class="sha" data-sha="1a2b3c4">1a2b3c4</span>] Fix it');
    expect(markCommitShas(html`<pre>[main (root-commit) abcdef0] init</pre>`).value).toContain(
      'data-sha="abcdef0"',
    );
    expect(commitBase('https://github.com/o/r.git')).toBe('https://github.com/o/r/commit/');
    expect(commitBase('javascript:alert(1)')).toBeNull();
    expect(commitBase('https://x/"onmouseover=')).toBeNull();
  });
});

describe('the outline of prompts', () => {
  it('lists the prompts of the active path with links, commands as commands, meta text left out', () => {
    const s = demoSession();
    const extra = [
      entry('c1', null, {
        kind: 'command',
        content: [{ type: 'text', text: '<command-name>/mcp</command-name>' }],
      }),
      entry('m1', null, { isMeta: true, content: [{ type: 'text', text: 'injected' }] }),
    ];
    const prompts = outlinePrompts([...activeEntries(s), ...extra], (e) => `#${e.uuid}`);
    expect(prompts.map((p) => p.href)).toEqual(['#u1', '#u2b', '#u3', '#c1']);
    expect(prompts[3]?.text).toBe('/mcp');
    const out = renderOutline(prompts).value;
    expect(out).toContain(
      '<nav class="outline" aria-label="Prompts"><details open><summary>Prompts (4)</summary>',
    );
    expect(out).not.toContain('<script');
  });
});

function failedSpawnSession(): Session {
  const s = demoSession();
  const call = entry('fa', 'u2b', {
    actor: 'claude',
    kind: 'assistant',
    content: [{ type: 'tool_use', id: 'tf', name: 'Agent', input: { subagent_type: 'nope', prompt: 'x' } }],
  });
  const res = entry('fr', 'fa', {
    actor: 'tool',
    kind: 'tool-result',
    content: [
      {
        type: 'tool_result',
        toolUseId: 'tf',
        isError: true,
        content: [{ type: 'text', text: '<tool_use_error>Agent type nope not found.</tool_use_error>' }],
      },
    ],
  });
  const failed: Sidechain = {
    ...(s.sidechains[0] as Sidechain),
    id: 'task-tf',
    agentId: null,
    agentType: 'nope',
    status: 'missing',
    entries: 0,
    spawn: { toolUseId: 'tf', entryUuid: 'fa' },
  };
  return {
    ...s,
    entries: [...s.entries, call, res],
    tools: [
      ...s.tools,
      {
        id: 'tf',
        name: 'Agent',
        callUuid: 'fa',
        resultUuid: 'fr',
        status: 'error',
        durationMs: null,
        batch: null,
        sidechain: null,
      },
    ],
    sidechains: [...s.sidechains, failed],
  };
}

describe('agents', () => {
  it('shows a failed spawn as a failure with its error, and does not count it as a run', () => {
    const s = failedSpawnSession();
    const failed = s.sidechains.at(-1) as Sidechain;
    expect(runOutcome(s, failed)).toEqual({ outcome: 'failed-spawn', error: 'Agent type nope not found.' });
    expect(runOutcome(s, s.sidechains[0] as Sidechain).outcome).toBe('ran');
    const runs = s.sidechains.map((sc) => ({ run: agentRunOf(s, sc), sessionKey: 'k' }));
    const nope = aggregateAgents(runs).find((a) => a.agentType === 'nope');
    expect(nope).toMatchObject({ invocations: 0, failedSpawns: 1, errors: 1, errorRate: 1 });
  });

  it('tells a missing transcript from a failed spawn', () => {
    const s = demoSession();
    const sc = { ...(s.sidechains[0] as Sidechain), status: 'missing' as const, entries: 0 };
    expect(runOutcome(s, sc)).toEqual({ outcome: 'missing-transcript', error: null });
  });
});

describe('the search piece of a session', () => {
  it('is made from the texts of its entries when they are given, the same piece as from the entries', () => {
    const s = demoSession();
    const locate = (e: { uuid: string }) => ({ route: 's/demo/x/', anchor: `e-${e.uuid}` });
    const texts = s.entries.map(entrySearchText);
    const piece = searchPiece(s, locate, 's/demo/x/');
    expect(searchPiece(s, locate, 's/demo/x/', texts)).toBe(piece);
    // The texts given are what is indexed: the entries are not read for them again.
    const given = searchPiece(
      s,
      locate,
      's/demo/x/',
      texts.map((t) => (t === '' ? t : `${t} zebra`)),
    );
    expect(new Map(readPiece(given as string).t).has('zebra')).toBe(true);
    expect(new Map(readPiece(piece as string).t).has('zebra')).toBe(false);
    // Texts that are not one an entry are not taken.
    expect(searchPiece(s, locate, 's/demo/x/', texts.slice(1))).toBe(piece);
  });

  it('indexes what the pages show, entry by entry, with links to each place', () => {
    const s = demoSession();
    const piece = searchPiece(s, (e) => ({ route: 's/demo/x/', anchor: `e-${e.uuid}` }), 's/demo/x/');
    expect(piece).not.toBeNull();
    expect(piece).not.toMatch(/<|\u2028/);
    const parsed = readPiece(piece as string);
    // An entry's anchor and label, as the piece holds them: JSON strings inside a single-quoted literal.
    const anchorOf = (text: string | undefined) => JSON.parse(`[${new Function(`return '${text}'`)()}]`)[0];
    expect(parsed.s).toBe('s/demo/x/index.html');
    expect(parsed.r).toEqual(['s/demo/x/index.html']);
    const terms = new Map(parsed.t);
    const docsOf = (term: string) => decodePostings(terms.get(term) ?? '').docs;
    expect(docsOf('checkout').map((d) => anchorOf(parsed.d[d]?.[1]))).toContain('e-u1');
    // Tool outputs are searched too; terms are lower case.
    expect(docsOf('cart').length).toBeGreaterThan(1);
    expect(terms.has('Checkout')).toBe(false);
  });

  it('leaves progress out and caps tool outputs', () => {
    expect(
      entrySearchText(entry('p', null, { kind: 'progress', content: [{ type: 'text', text: 'x' }] })),
    ).toBe('');
    const long = entry('r', null, {
      content: [
        {
          type: 'tool_result',
          toolUseId: 't',
          isError: false,
          content: [{ type: 'text', text: 'y'.repeat(9000) }],
        },
      ],
    });
    expect(entrySearchText(long).length).toBe(2000);
  });

  it('caps a block across its parts as the whole joined text would be cut', () => {
    const result = entry('r', null, {
      content: [
        {
          type: 'tool_result',
          toolUseId: 't',
          isError: false,
          content: [
            { type: 'text', text: 'a'.repeat(1500) },
            { type: 'text', text: 'b'.repeat(1000) },
            { type: 'text', text: 'c' },
          ],
        },
      ],
    });
    expect(entrySearchText(result)).toBe(`${'a'.repeat(1500)}\n${'b'.repeat(499)}`);
    const call = entry('c', null, {
      content: [
        {
          type: 'tool_use',
          id: 't',
          name: 'Edit',
          input: { x: 'a'.repeat(600), y: ['b'], z: 'c'.repeat(900) },
        },
      ],
    });
    expect(entrySearchText(call)).toBe(`Edit ${'a'.repeat(600)} ${'c'.repeat(394)}`);
  });

  it('lowers terms, and drops those longer than 40 characters before lowering them', () => {
    const long = (c: string) => `${c}${'x'.repeat(39)}`;
    const text = `Straße İSTANBUL ${long('İ')} ${long('Y')} ${long('Yx')} MiXed_Case`;
    const s = { ...demoSession(), entries: [entry('u', null, { content: [{ type: 'text', text }] })] };
    const piece = searchPiece(s, (e) => ({ route: 's/demo/x/', anchor: `e-${e.uuid}` }), 's/demo/x/');
    const terms = readPiece(piece as string)
      .t.map(([t]) => t)
      .sort();
    // 'İ' lowers to two characters: its 40-character word is kept, 41 characters once lowered.
    expect(terms).toEqual(['case', 'i̇stanbul', long('i̇'), long('y'), 'mixed', 'straße'].sort());
  });
});
