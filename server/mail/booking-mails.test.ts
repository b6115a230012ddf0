import { describe, expect, it } from 'vitest';
import { bookingReceivedMail, heldTimeGivenAwayMail } from './templates.js';

/** A visitor's own text is the greeting of mails sent to the address they typed: it must never become a link there. */
describe('booking mails', () => {
  const base = { to: 'asha@example.test', phone: '+91 98765 43210', bookingId: 7 };

  it('greets by name when the name is only a name', () => {
    const mail = bookingReceivedMail({ ...base, name: 'Asha Rao' });
    expect(mail.text.startsWith('Hello Asha Rao,')).toBe(true);
  });

  it.each(['Win at prize.example', 'https://prize.example', 'www.prize.example', 'me@prize.example'])(
    'leaves out a stored name a mail client could make a link of: %j',
    (name) => {
      for (const mail of [
        bookingReceivedMail({ ...base, name }),
        heldTimeGivenAwayMail({ ...base, name, when: '20 Oct 2026, 10:00 am' }),
      ]) {
        expect(mail.text.startsWith('Hello,')).toBe(true);
        expect(mail.text).not.toContain('prize.example');
        expect(mail.html).not.toContain('prize.example');
      }
    },
  );

  it('says a held time is booked only once confirmed, with the button to confirm it', () => {
    const mail = bookingReceivedMail({
      ...base,
      name: 'Asha Rao',
      time: {
        held: {
          when: '20 Oct 2026, 10:00 am (GMT+5:30)',
          until: '19 Oct 2026, 9:30 am (GMT+5:30)',
          confirmUrl: 'https://poshan.example/confirm-consultation?hold=1&exp=2&sig=x',
        },
      },
    });
    expect(mail.text).toContain('It is booked only once you confirm it');
    expect(mail.text).toContain('Confirm my time: https://poshan.example/confirm-consultation?hold=1&exp=2&sig=x');
  });
});
