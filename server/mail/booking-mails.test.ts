import { describe, expect, it } from 'vitest';
import { heldTimeGivenAwayMail } from './templates.js';

/** A visitor's own text is the greeting of mails sent to the address they typed: it must never become a link there. */
describe('booking mails', () => {
  const base = { to: 'asha@example.test', phone: '+91 98765 43210', bookingId: 7 };

  it.each(['Win at prize.example', 'https://prize.example', 'www.prize.example', 'me@prize.example'])(
    'leaves out a stored name a mail client could make a link of: %j',
    (name) => {
      for (const mail of [heldTimeGivenAwayMail({ ...base, name, when: '20 Oct 2026, 10:00 am' })]) {
        expect(mail.text.startsWith('Hello,')).toBe(true);
        expect(mail.text).not.toContain('prize.example');
        expect(mail.html).not.toContain('prize.example');
      }
    },
  );
});
