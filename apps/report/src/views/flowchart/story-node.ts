import type { Entry } from '../model.js';

/** A node of the flowchart's story (`mermaid-story.ts`): what it stands for, what it counts, where it hangs. */

/** What a node of the flowchart stands for (its CSS class). */
export type FlowKind = 'active' | 'abandoned' | 'sidechain' | 'compaction' | 'epoch';

/** A node of the story. */
export interface FlowNode {
  id: string;
  kind: FlowKind;
  /** What the node is about, before its counts (plain text; escaped when written). */
  text: string;
  /** Entries counted in the node. */
  entries: number;
  /** API errors and failed tool results in it. */
  errors: number;
  /** Tools used in it, by first use. */
  tools: Set<string>;
  /** First entry (in file order) of the node: its link target. */
  first: Entry;
  /** The node it hangs from (null for the first). */
  parent: FlowNode | null;
  /** Epoch of the main conversation the node belongs to. */
  epoch: number;
  /** For a sub-agent that ran in parallel: its group; the next turn joins the group. */
  parallelGroup: number | null;
  /** Sub-agents or branches folded into this one (beyond the fan-out and nesting limits). */
  merged: number;
  /** Set when the node was folded into another. */
  into: FlowNode | null;
  /** A sidechain id (agent nodes) or a branch point uuid (branch nodes). */
  key: string | null;
  /** For branch nodes: rewind or retry. */
  fork: 'rewind' | 'retry' | null;
  /** A turn that continues the one before it across a gap: its tree's root has no parent in the file. */
  gap: boolean;
}
