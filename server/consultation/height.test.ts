import { describe, expect, it } from 'vitest';
import { heightTextToMetres } from './height.js';

describe('heightTextToMetres', () => {
  it.each([
    ['168 cm', 1.68],
    ['168cm', 1.68],
    ['1.72 m', 1.72],
    [`5'6"`, 1.68],
    [`5' 6`, 1.68],
    ['5 ft 6 in', 1.68],
    ['5 feet 6 inches', 1.68],
    ['5ft', 1.52],
    ['5.6', 1.68],
    ['5,6', 1.68],
    ['5.10', 1.78],
    ['5.11', 1.8],
    ['6', 1.83],
    ['  5 FT 2 IN  ', 1.57],
  ])('reads %j as %d m', (text, metres) => {
    expect(heightTextToMetres(text)).toBe(metres);
  });

  it.each([
    ['', 'empty'],
    ['tall', 'words'],
    ['5.12', 'twelve inches is not a dotted feet-inches value'],
    [`5' 14"`, 'more than 11 inches'],
    ['300 cm', 'taller than anyone'],
    ['40 cm', 'too short for a person'],
    ['0', 'zero feet'],
  ])('gives null for %j (%s)', (text) => {
    expect(heightTextToMetres(text)).toBeNull();
  });
});
