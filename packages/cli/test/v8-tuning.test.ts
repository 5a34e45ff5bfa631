import { describe, expect, it } from 'vitest';
import { TURBOFAN_BUDGET, tuningFlags } from '../src/runtime/v8-tuning.js';

describe('tuningFlags', () => {
  it('raises the TurboFan budget', () => {
    expect(tuningFlags([])).toEqual([`--interrupt-budget=${TURBOFAN_BUDGET}`]);
    expect(tuningFlags(['--enable-source-maps'])).toEqual([`--interrupt-budget=${TURBOFAN_BUDGET}`]);
  });

  it("leaves the budget to node's own command line", () => {
    expect(tuningFlags(['--interrupt-budget=5000'])).toEqual([]);
    expect(tuningFlags(['--interrupt_budget=5000'])).toEqual([]);
    expect(tuningFlags(['--interrupt-budget', '5000'])).toEqual([]);
  });

  it('does not mistake other flags for it', () => {
    expect(tuningFlags(['--interrupt-budget-for-feedback-allocation=10'])).toEqual([
      `--interrupt-budget=${TURBOFAN_BUDGET}`,
    ]);
  });
});
