import { expect, it } from 'vitest';
import { portionText, timeText } from './portion';

it('reads portions in household units with their weight', () => {
  expect(portionText({ quantity: 1, unit: 'katori', grams: 150 })).toBe('1 katori (150 g)');
  expect(portionText({ quantity: 2, unit: 'roti', grams: 60 })).toBe('2 rotis (60 g)');
  expect(portionText({ quantity: 1.5, unit: 'glass', ml: 300 })).toBe('1½ glasses (300 ml)');
  expect(portionText({ quantity: 0.5, unit: 'cup', grams: 40 })).toBe('½ cup (40 g)');
});

it('reads times on a 12-hour clock', () => {
  expect(timeText('07:30')).toBe('7:30 am');
  expect(timeText('13:05')).toBe('1:05 pm');
  expect(timeText('00:00')).toBe('12:00 am');
});
