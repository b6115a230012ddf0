import { describe, expect, it } from 'vitest';
import { parseNotification } from './notification.js';

type Ping = { n: number };
const isPing = (v: unknown): v is Ping => typeof v === 'object' && v !== null && typeof (v as Ping).n === 'number';

describe('parseNotification', () => {
  it('gives the payload of the expected shape', () => {
    const errors: Error[] = [];
    expect(parseNotification('{"n":3}', isPing, 'test', (e) => errors.push(e))).toEqual({ n: 3 });
    expect(errors).toEqual([]);
  });

  it('reports a payload that is not JSON, or not of the shape, and gives null', () => {
    const errors: Error[] = [];
    expect(parseNotification('{not json', isPing, 'test', (e) => errors.push(e))).toBeNull();
    expect(parseNotification('{"m":1}', isPing, 'feed', (e) => errors.push(e))).toBeNull();
    expect(errors).toHaveLength(2);
    expect(errors[0]).toBeInstanceOf(SyntaxError);
    expect(errors[1]!.message).toBe('unexpected feed notification: {"m":1}');
  });
});
