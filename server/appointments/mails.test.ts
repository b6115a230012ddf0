import { describe, expect, it } from 'vitest';
import { appointmentIcs, icsParamText, type MailAppointment } from './mails.js';

const appointment: MailAppointment = {
  id: 7,
  kind: 'consultation',
  start: new Date('2026-12-01T04:30:00Z'),
  end: new Date('2026-12-01T05:00:00Z'),
  dietitianName: 'Meera "M" ^ Iyer',
  dietitianEmail: 'meera@poshan.example',
  sequence: 1,
  callPath: '/dashboard/appointments/7/call',
};

/** The content lines of an iCalendar text, unfolded (RFC 5545 §3.1). */
const contentLines = (ics: string) =>
  ics
    .replace(/\r\n[ \t]/g, '')
    .split('\r\n')
    .filter(Boolean);

// RFC 5545 §3.1: a parameter value is paramtext or a quoted-string, which holds no DQUOTE and no control character.
const PARAM_VALUE = String.raw`(?:"[^"\u0000-\u0008\u000a-\u001f\u007f]*"|[^";:,\u0000-\u0008\u000a-\u001f\u007f]*)`;
const PARAM = `;[A-Za-z0-9-]+=${PARAM_VALUE}(?:,${PARAM_VALUE})*`;

/** The parameters of a content line as the grammar reads them, or null when the line is not well formed. */
function parseParams(line: string, name: string): Record<string, string> | null {
  const m = new RegExp(`^${name}((?:${PARAM})*):(.*)$`).exec(line);
  if (!m) return null;
  const params: Record<string, string> = {};
  for (const p of m[1]!.matchAll(new RegExp(`;([A-Za-z0-9-]+)=(${PARAM_VALUE})`, 'g'))) {
    params[p[1]!] = p[2]!.replace(/^"(.*)"$/, '$1');
  }
  return params;
}

/** RFC 6868's decoding: ^^ → ^, ^n → a line break, ^' → ". */
const decode6868 = (value: string) => value.replace(/\^([\^n'])/g, (_, c: string) => (c === '^' ? '^' : c === 'n' ? '\n' : '"'));

describe('the .ics invitation', () => {
  it('encodes a name with a quote, a caret and a line break per RFC 6868, so its ATTENDEE and ORGANIZER lines stay well formed', () => {
    const name = 'Asha "Ash" ^ Rao\nX-INJECTED:1';
    const lines = contentLines(appointmentIcs(appointment, { cancelled: false, attendee: { name, email: 'asha@example.in' } }));

    const attendees = lines.filter((l) => l.startsWith('ATTENDEE'));
    expect(attendees).toHaveLength(1);
    const attendee = parseParams(attendees[0]!, 'ATTENDEE');
    expect(attendee, attendees[0]).not.toBeNull();
    expect(attendee!.CN).toBe(`Asha ^'Ash^' ^^ Rao^nX-INJECTED:1`);
    expect(decode6868(attendee!.CN!)).toBe(name);
    expect(attendees[0]).toMatch(/:mailto:asha@example\.in$/);

    const organizer = parseParams(lines.find((l) => l.startsWith('ORGANIZER'))!, 'ORGANIZER');
    expect(organizer).not.toBeNull();
    expect(decode6868(organizer!.CN!)).toBe(appointment.dietitianName);
    // The line break stayed inside the value: no property of its own came of it.
    expect(lines.some((l) => l.startsWith('X-INJECTED'))).toBe(false);
  });

  it('leaves an ordinary name as it is and drops control characters that have no encoding', () => {
    expect(icsParamText('Priya Sharma')).toBe('Priya Sharma');
    expect(icsParamText('Priya\u0007 Sharma\r\nJr')).toBe('Priya Sharma^nJr');
  });
});
