import { expect, it } from 'vitest';
import { portionText, timeText } from './portion.js';

it('reads portions in household measures with their weight, or in grams alone', () => {
  expect(portionText({ quantity: 1, unit: 'katori', grams: 150 })).toBe('1 katori (150 g)');
  expect(portionText({ quantity: 2, unit: 'roti', grams: 60 })).toBe('2 rotis (60 g)');
  expect(portionText({ quantity: 1.5, unit: 'glass', ml: 300 })).toBe('1½ glasses (300 ml)');
  expect(portionText({ quantity: 0.5, unit: 'cup', grams: 40 })).toBe('½ cup (40 g)');
  expect(portionText({ quantity: 2, unit: 'tsp' })).toBe('2 tsp');
  expect(portionText({ quantity: 150, unit: 'g' })).toBe('150 g');
  expect(portionText({ quantity: 200, unit: 'ml', grams: 200 })).toBe('200 ml');
});

it('reads times on a 12-hour clock', () => {
  expect(['00:15', '07:30', '12:00', '13:05', '23:59'].map(timeText)).toEqual(['12:15 am', '7:30 am', '12:00 pm', '1:05 pm', '11:59 pm']);
});
