import { describe, expect, it } from 'vitest';
import { requestReceivedMail } from './mails.js';
import { consultationWhen, visitorWords } from './schema.js';

/** Tue 1 Dec 2026, 09:00 in India is 03:30 in London. */
const start = new Date('2026-12-01T03:30:00Z');
const heldUntil = new Date('2026-11-28T10:00:00Z');
const base = { to: 'asha@example.test', bookingId: 7 };
const phone = '+91 98765 43210';

describe('a visitor’s request mail', () => {
  it('writes a time in India time and in the visitor’s own zone', () => {
    expect(consultationWhen(start)).toBe('Tue 1 Dec, 09:00 IST');
    expect(consultationWhen(start, 'Europe/London')).toBe('Tue 1 Dec, 09:00 IST (your time: Tue 1 Dec, 03:30 in London)');
    expect(consultationWhen(new Date('2026-12-01T01:00:00Z'), 'America/New_York')).toBe(
      'Tue 1 Dec, 06:30 IST (your time: Mon 30 Nov, 20:00 in New York)',
    );
  });

  it('says for a held time exactly what the confirmation screen says, with the button to confirm it, and nothing of a call', () => {
    const state = { state: 'held', start, heldUntil, phone, tz: 'Europe/London' } as const;
    const words = visitorWords(state);
    const mail = requestReceivedMail({
      ...base,
      name: 'Asha Rao',
      state,
      confirmUrl: 'https://poshan.example/confirm-consultation?hold=1&exp=2&sig=x',
    });
    expect(mail.subject).toBe('Confirm your time within 30 minutes (request #7)');
    expect(mail.text.startsWith('Hello Asha Rao,')).toBe(true);
    expect(mail.text).toContain(words.lead);
    for (const step of words.steps) expect(mail.text).toContain(step);
    expect(mail.text).toContain('Tue 1 Dec, 09:00 IST (your time: Tue 1 Dec, 03:30 in London)');
    expect(mail.text).toContain('It is booked only once you confirm it');
    expect(mail.text).toContain('Confirm my time: https://poshan.example/confirm-consultation?hold=1&exp=2&sig=x');
    // One mail per state: the held mail never says the time is booked, nor that we call to agree a time as the plan.
    expect(mail.text).not.toMatch(/is booked for|we call you to agree a time that suits you/i);
  });

  it('says for a callback request that we call, with no time and no confirm button', () => {
    const state = { state: 'callback', phone } as const;
    const mail = requestReceivedMail({ ...base, name: 'Asha Rao', state });
    expect(mail.subject).toBe('We will call you back (request #7)');
    for (const step of visitorWords(state).steps) expect(mail.text).toContain(step);
    expect(mail.text).toContain(`calls you on ${phone}`);
    expect(mail.text).not.toMatch(/Confirm my time|booked|IST/);
  });

  it('says for a time not held that we call to agree one, naming the time asked for', () => {
    const state = { state: 'not-held', start, phone } as const;
    const mail = requestReceivedMail({ ...base, name: 'Asha Rao', state });
    expect(mail.text).toContain(visitorWords(state).lead);
    expect(mail.text).toContain('we could not hold Tue 1 Dec, 09:00 IST');
    expect(mail.text).not.toContain('Confirm my time');
  });

  it.each(['Win at prize.example', 'https://prize.example', 'www.prize.example', 'me@prize.example'])(
    'leaves out a stored name a mail client could make a link of: %j',
    (name) => {
      const mail = requestReceivedMail({ ...base, name, state: { state: 'callback', phone } });
      expect(mail.text.startsWith('Hello,')).toBe(true);
      expect(mail.text).not.toContain('prize.example');
      expect(mail.html).not.toContain('prize.example');
    },
  );
});
