import { describe, expect, it } from 'vitest';
import { deviceName } from './device-name.js';

describe('deviceName', () => {
  it('names common browsers and systems', () => {
    expect(
      deviceName('Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36'),
    ).toBe('Chrome on Android');
    expect(
      deviceName(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
      ),
    ).toBe('Safari on iOS');
    expect(deviceName('Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0')).toBe('Firefox on Windows');
    expect(deviceName('Mozilla/5.0 (Windows NT 10.0) AppleWebKit/537.36 Chrome/131.0 Safari/537.36 Edg/131.0')).toBe('Edge on Windows');
  });
  it('says so when it cannot tell', () => {
    expect(deviceName('')).toBe('Unknown browser');
    expect(deviceName(null)).toBe('Unknown browser');
    expect(deviceName('curl/8.5.0')).toBe('Other app or browser');
  });
});
