import { describe, expect, it } from 'vitest';
import { fillPlaceholders } from './placeholders';

describe('saved reply placeholders', () => {
  it('fills {first name} and {full name} in any spelling, and leaves what it cannot fill', () => {
    const client = { firstName: 'Asha', fullName: 'Asha Verma' };
    expect(fillPlaceholders('Hi {first name}, well done!', client)).toBe('Hi Asha, well done!');
    expect(fillPlaceholders('{First_Name} / {FULL NAME} / {full-name}', client)).toBe('Asha / Asha Verma / Asha Verma');
    expect(fillPlaceholders('Hi {first name} {plan}', { firstName: null, fullName: null })).toBe('Hi {first name} {plan}');
  });
});
