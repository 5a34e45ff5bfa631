import type { FlowNode } from '../../src/views/flowchart/mermaid-story.js';

/**
 * Main-thread nodes (turns, compactions) with no main-thread child: 1 when the turns form one lane, so that a
 * chart's leaves are its forks, its sub-agents and the conversation's end.
 */
export function mainLeaves(nodes: readonly FlowNode[]): number {
  const main = nodes.filter((n) => n.kind === 'active' || n.kind === 'compaction');
  const parents = new Set(main.flatMap((n) => (n.parent ? [n.parent] : [])));
  return main.filter((n) => !parents.has(n)).length;
}
