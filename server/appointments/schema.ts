import { z } from 'zod';
import { mondayOf } from '../time.js';
import { idempotencyKey, idField, isCalendarDate, plainText } from '../validation.js';

/** Appointments. zod only: the client's screens import this file. */

export const APPOINTMENT_KINDS = ['consultation', 'follow_up'] as const;
export const APPOINTMENT_KIND_LABELS = { consultation: 'Free consultation', follow_up: 'Follow-up' } as const;
export const APPOINTMENT_STATUS_LABELS = { booked: 'Booked', cancelled: 'Cancelled', done: 'Done', no_show: 'No-show' } as const;
/** A client may move or cancel until this long before the start; later only a dietitian can. */
export const CLIENT_CHANGE_HOURS = 12;
/**
 * A client who books a session herself less than CLIENT_CHANGE_HOURS ahead (today's, say) may still move or
 * cancel it for this long after booking: a slip is undone at once, without a message to the dietitian.
 */
export const CLIENT_GRACE_MINUTES = 15;
/** How far ahead a visitor's free consultation can be booked. */
export const CONSULTATION_HORIZON_DAYS = 14;
/** How far ahead a client's follow-up can be booked. */
export const FOLLOW_UP_HORIZON_DAYS = 28;
/** The widest range one slots request may ask for. */
export const MAX_SLOT_RANGE_DAYS = 31;
export const CANCEL_REASON_MAX = 1000;

export const kindField = z.enum(APPOINTMENT_KINDS, { error: "kind must be 'consultation' or 'follow_up'" });

const START_MESSAGE = 'start must be a date and time with its offset, such as 2026-12-01T10:00:00+05:30';
/** An instant with an explicit offset (or Z): a bare local time means nothing across time zones. */
export const instantField = (label: string) =>
  z.preprocess(
    (v) => (v instanceof Date ? v.toISOString() : v),
    z
      .string({ error: (iss) => (iss.input == null ? `${label} is required` : START_MESSAGE.replace('start', label)) })
      .trim()
      .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/, START_MESSAGE.replace('start', label))
      .refine((s) => !Number.isNaN(Date.parse(s)), START_MESSAGE.replace('start', label))
      .transform((s) => new Date(s)),
  );

/** A day ('YYYY-MM-DD', read as an India-time day) or an instant; for the slot range's ends. */
const rangeEnd = (label: string) =>
  z.preprocess(
    (v) => (v instanceof Date ? v.toISOString() : v),
    z
      .string({ error: `${label} must be a date (YYYY-MM-DD) or a date and time with its offset` })
      .trim()
      .refine(
        (s) => isCalendarDate(s) || /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(s),
        `${label} must be a date (YYYY-MM-DD) or a date and time with its offset`,
      )
      .refine((s) => !Number.isNaN(Date.parse(s)), `${label} is not a real date`),
  );

const TZ_MESSAGE = 'tz must be a time zone name such as Asia/Dubai or Europe/London';
export const timeZoneField = z
  .string({ error: TZ_MESSAGE })
  .trim()
  .max(64, TZ_MESSAGE)
  .regex(/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+){0,2}$/, TZ_MESSAGE)
  .refine((tz) => {
    try {
      new Intl.DateTimeFormat('en-GB', { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  }, TZ_MESSAGE);

export const slotsInput = z.object({
  /** From this day (India time) or instant; default now. */
  from: rangeEnd('from').optional(),
  /** Up to this day (exclusive, India time) or instant; default 14 days after from. */
  to: rangeEnd('to').optional(),
  kind: kindField.default('follow_up'),
  /** The viewer's time zone, for `local` in each slot (default India time). */
  tz: timeZoneField.optional(),
  /** A dietitian asking for a client's follow-up slots names the client. */
  clientId: idField('clientId').optional(),
});
export type SlotsInput = z.input<typeof slotsInput>;

export const wallClock = z.object({
  date: z.string().describe('YYYY-MM-DD'),
  time: z.string().describe('HH:mm, 24-hour'),
  zone: z.string().describe('The zone’s short name, e.g. GST, GMT+4, BST'),
});
export type WallClock = z.infer<typeof wallClock>;

export const slotView = z.object({
  start: z.date(),
  end: z.date(),
  /** In the viewer's time zone (the `tz` asked for). */
  local: wallClock,
  /** In India time, the clinic's clock. */
  india: wallClock,
});
export type SlotView = z.infer<typeof slotView>;

export const slotsView = z.object({
  kind: kindField,
  timeZone: z.string(),
  minutes: z.number().int().describe('The session’s length'),
  slots: z.array(slotView),
});

export const entitlementView = z.object({
  /** 'monthly': twice a month (one-month plans); 'weekly': one a week (longer plans); 'none': no running plan. */
  rule: z.enum(['monthly', 'weekly', 'none']),
  /** Follow-ups the plan includes this month (India time); for a weekly plan, its weeks that begin in this month. */
  perMonth: z.number().int(),
  /** Still bookable this month (a weekly plan: those weeks, from this one on, with none booked). */
  leftThisMonth: z.number().int(),
  /** What the plan counts in: India-time calendar months, or calendar weeks (Monday to Sunday, India time); null with no plan. */
  period: z.enum(['month', 'week']).nullable(),
  /** Follow-ups included per period. */
  perPeriod: z.number().int(),
  /** The period holding today: its first and last India-time days. */
  periodStart: z.string().nullable(),
  periodEnd: z.string().nullable(),
  /** Still bookable in the period holding today. */
  leftThisPeriod: z.number().int(),
  /** First days of the periods, from this one to the booking horizon, whose follow-ups are all booked: their times cannot be booked. */
  fullPeriods: z.array(z.string()),
  planName: z.string().nullable(),
  planEnds: z.string().nullable(),
});
export type EntitlementView = z.infer<typeof entitlementView>;

/** The first day of the period (an India-time month or Monday-to-Sunday week) holding a 'YYYY-MM-DD' day. */
export function periodStartOf(day: string, period: 'month' | 'week'): string {
  return period === 'month' ? `${day.slice(0, 7)}-01` : mondayOf(day);
}

export const appointmentView = z.object({
  id: z.number().int(),
  kind: kindField,
  status: z.enum(['booked', 'cancelled', 'done', 'no_show']),
  start: z.date(),
  end: z.date(),
  local: wallClock,
  india: wallClock,
  dietitianId: z.number().int(),
  dietitianName: z.string(),
  clientId: z.number().int().nullable(),
  consultationId: z.number().int().nullable(),
  /** Who the appointment is with: the client's or visitor's name. */
  personName: z.string(),
  /** The call page of this appointment. */
  callPath: z.string(),
  /** Until when the client may move or cancel it themselves. */
  changeableUntil: z.date(),
  /** Whether the viewer may move or cancel it now. */
  canChange: z.boolean(),
  cancelReason: z.string().nullable(),
  cancelledAt: z.date().nullable(),
});
export type AppointmentView = z.infer<typeof appointmentView>;

export const bookedAppointment = appointmentView.extend({ repeated: z.boolean() });

export const myAppointmentsView = z.object({
  timeZone: z.string(),
  upcoming: z.array(appointmentView),
  past: z.array(appointmentView),
  entitlement: entitlementView,
});

export const listInput = z
  .object({
    tz: timeZoneField.optional(),
    clientId: idField('clientId').optional(),
  })
  .optional()
  .transform((v) => v ?? {});

export const bookInput = z.object({
  start: instantField('start'),
  kind: kindField.default('follow_up'),
  /** Made once per submission (crypto.randomUUID()) and sent again on a retry: a repeat returns the first booking. */
  clientRequestId: idempotencyKey('clientRequestId'),
  /** A dietitian booking for a client names the client. */
  clientId: idField('clientId').optional(),
  tz: timeZoneField.optional(),
});
export type BookInput = z.input<typeof bookInput>;

export const rescheduleInput = z.object({
  id: idField('id'),
  start: instantField('start'),
  tz: timeZoneField.optional(),
});

/** A few optional lines for the other side (a cancellation's reason, the dietitian's message). */
const noteText = (label: string) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(CANCEL_REASON_MAX, `${label} must be at most ${CANCEL_REASON_MAX.toLocaleString('en-IN')} characters`)
    .pipe(plainText(label, { multiline: true }))
    .nullish()
    .transform((v) => (v ? v : null));

export const cancelInput = z.object({ id: idField('id'), reason: noteText('reason'), tz: timeZoneField.optional() });

export const appointmentIdInput = z.object({ id: idField('id') });

/* The console. */

const dayField = (label: string) =>
  z
    .string({ error: `${label} must be a date (YYYY-MM-DD)` })
    .trim()
    .refine(isCalendarDate, `${label} must be a real date (YYYY-MM-DD)`);

export const calendarInput = z.object({
  /** The first India-time day shown (a week view sends its Monday). */
  from: dayField('from'),
  days: z
    .number({ error: 'days must be a number' })
    .int('days must be a whole number')
    .min(1, 'days must be 1 to 31')
    .max(31, 'days must be 1 to 31')
    .default(7),
});

export const calendarView = z.object({
  from: z.string(),
  days: z.number().int(),
  dietitians: z.array(z.object({ id: z.number().int(), name: z.string() })),
  appointments: z.array(appointmentView),
});

export const markInput = z.object({
  id: idField('id'),
  status: z.enum(['done', 'no_show'], { error: "status must be 'done' or 'no_show'" }),
});

const messageText = noteText('message');

export const consoleMoveInput = z.object({ id: idField('id'), start: instantField('start'), message: messageText });
export const consoleCancelInput = z.object({ id: idField('id'), message: messageText });

/** A time of day as minutes after midnight (the form's time fields; an API caller sends the numbers). */
const minuteOfDay = (which: 'start' | 'end', max: number) =>
  z
    .number({ error: `Give ${which === 'start' ? 'a start' : 'an end'} time` })
    .int(`The ${which} time must be in whole minutes`)
    .min(0, `The ${which} time must be between 00:00 and ${which === 'start' ? '23:59' : '24:00'}`)
    .max(max, `The ${which} time must be between 00:00 and ${which === 'start' ? '23:59' : '24:00'}`);

const windowShape = { startMinute: minuteOfDay('start', 1439), endMinute: minuteOfDay('end', 1440) };
const ordered = (w: { startMinute: number | null; endMinute: number | null }) =>
  w.startMinute === null || w.endMinute === null || w.endMinute > w.startMinute;
/** Said on the end time's field (its path), where the form shows it. */
const ORDER = { message: 'The end time must be after the start time', path: ['endMinute'] };

export const availabilityForm = z.object({
  consultationMinutes: z
    .number({ error: 'consultationMinutes must be a number' })
    .int()
    .min(10, 'Sessions are 10 to 180 minutes')
    .max(180, 'Sessions are 10 to 180 minutes'),
  followUpMinutes: z
    .number({ error: 'followUpMinutes must be a number' })
    .int()
    .min(10, 'Sessions are 10 to 180 minutes')
    .max(180, 'Sessions are 10 to 180 minutes'),
  bufferMinutes: z
    .number({ error: 'bufferMinutes must be a number' })
    .int()
    .min(0, 'The buffer is 0 to 120 minutes')
    .max(120, 'The buffer is 0 to 120 minutes'),
  bookable: z.boolean({ error: 'bookable must be true or false' }),
  weekly: z
    .array(
      z
        .object({
          weekday: z
            .number({ error: 'weekday must be 1 (Monday) to 7 (Sunday)' })
            .int()
            .min(1, 'weekday must be 1 (Monday) to 7 (Sunday)')
            .max(7, 'weekday must be 1 (Monday) to 7 (Sunday)'),
          kind: z.enum(['hours', 'break'], { error: "kind must be 'hours' or 'break'" }),
          ...windowShape,
        })
        .refine(ordered, ORDER),
    )
    .max(100, 'At most 100 weekly rows'),
  exceptions: z
    .array(
      z
        .object({
          day: z.string({ error: 'Pick the day' }).trim().refine(isCalendarDate, 'Pick the day (a real date)'),
          kind: z.enum(['off', 'open'], { error: "kind must be 'off' or 'open'" }),
          startMinute: windowShape.startMinute.nullable().default(null),
          endMinute: windowShape.endMinute.nullable().default(null),
          note: z
            .string({ error: 'note must be text' })
            .trim()
            .max(200, 'note must be at most 200 characters')
            .pipe(plainText('note'))
            .nullish()
            .transform((v) => (v ? v : null)),
        })
        .refine(ordered, ORDER)
        .refine((e) => (e.startMinute === null) === (e.endMinute === null), {
          message: 'Give both a start and an end time, or neither for the whole day',
          path: ['endMinute'],
        })
        .refine((e) => e.kind === 'off' || e.startMinute !== null, {
          message: 'Extra hours need a start and an end time',
          path: ['startMinute'],
        }),
    )
    .max(400, 'At most 400 one-off changes'),
});

/** Where a field's message goes on the availability form: zod's path as the server's field errors name it ('weekly.3.endMinute'). */
export const availabilityFieldKey = (path: readonly PropertyKey[]) => path.map(String).join('.');
export type AvailabilityForm = z.infer<typeof availabilityForm>;

export const availabilityInput = z.object({ dietitianId: idField('dietitianId').optional() });
export const saveAvailabilityInput = availabilityForm.extend({ dietitianId: idField('dietitianId').optional() });

export const availabilityView = availabilityForm.extend({
  /** Whether clients and visitors can book this dietitian now, as saved: marked as taking bookings, with some weekly hours. */
  takingBookings: z.boolean(),
  dietitianId: z.number().int(),
  dietitianName: z.string(),
  dietitians: z.array(z.object({ id: z.number().int(), name: z.string() })),
});

/* Live (appointments.events). */

/** What changed about an appointment: its booking, its time, its cancellation, or its outcome (done, no-show). */
export const APPOINTMENT_CHANGES = ['booked', 'moved', 'cancelled', 'status'] as const;
export type AppointmentChange = (typeof APPOINTMENT_CHANGES)[number];

/**
 * appointments.events: 'ready' once listening (load the lists), then 'changed' for an appointment the viewer
 * may see (reload it and the slots), or 'slots' when someone else's booking or a dietitian's hours changed
 * the free times (reload the slots only). Ids only: no names, no times, nothing about anyone's health.
 */
export type AppointmentEvent = { kind: 'ready' } | { kind: 'changed'; appointmentId: number; what: AppointmentChange } | { kind: 'slots' };
