import { describe, expect, it } from 'vitest';
import { PLANS } from './plans.js';

describe('the plan catalogue', () => {
  it('writes list prices with Indian grouping', () => {
    expect(PLANS.find((p) => p.id === 'tier-commitment' && p.type === 'WL')?.price).toBe('₹11,999');
    expect(PLANS.find((p) => p.id === 'tier-kickstart' && p.type === 'WL')?.price).toBe('₹2,171');
  });
});
