import { replaceAvailability } from '../appointments/repo.js';
import { availabilityRows } from '../appointments/service.js';
import { type AvailabilityForm, availabilityForm } from '../appointments/schema.js';
import type { Availability } from '../appointments/slots.js';
import type { Db } from '../db/index.js';
import * as messagesRepo from '../messages/repo.js';
import { type OfficeHours, officeHours, savedReplyInput } from '../messages/schema.js';
import * as paymentsRepo from '../payments/repo.js';
import { type BillingSettings, billingSettingsInput, DEFAULT_SAC } from '../payments/schema.js';
import { addDays, isoWeekday } from '../time.js';

/**
 * The clinic as its dietitian sets it up in the console: billing details for
 * invoices and UPI, weekly hours for bookings, office hours for messages and a
 * few saved replies. Each is checked by the schema its console form uses.
 */

const BILLING: BillingSettings = billingSettingsInput.parse({
  legalName: 'Poshan Nutrition Services',
  address: 'Office 4, Lotus Court, 12th Road, Khar West, Mumbai 400052',
  stateCode: '27',
  gstin: '27AAPFP4321K1Z7',
  sacCode: DEFAULT_SAC,
  taxRateBp: 1800,
  // Not a real payment address: a demo's QR code must never send money to anyone.
  upiVpa: 'poshan.demo@okdemo',
  payeeName: 'Poshan Nutrition',
  invoicePrefix: 'PSN',
});

/** Inside the public working hours (Mon–Sat 09:00–20:00): sessions on weekdays with a lunch break, Saturday mornings. */
const hours = (h: number, m = 0) => h * 60 + m;
const WEEKDAYS = [1, 2, 3, 4, 5];
const weeklyHours = [
  ...WEEKDAYS.flatMap((weekday) => [
    { weekday, kind: 'hours' as const, startMinute: hours(9, 30), endMinute: hours(19) },
    { weekday, kind: 'break' as const, startMinute: hours(13), endMinute: hours(14) },
  ]),
  { weekday: 6, kind: 'hours' as const, startMinute: hours(10), endMinute: hours(14) },
];

/** Messages are answered Monday to Saturday, 9 am to 8 pm India time; outside them a client gets the away reply. */
export const DEMO_OFFICE_HOURS: OfficeHours = officeHours.parse({ days: [1, 2, 3, 4, 5, 6], opens: '09:00', closes: '20:00' });

const SAVED_REPLIES = [
  {
    title: 'Welcome',
    body: 'Welcome to Poshan! I am looking forward to working with you. Please fill in your intake questionnaire in the app, and log your meals in the journal for the first three days just as you eat them: no changes yet. I will send your first plan after our session.',
  },
  {
    title: 'Weigh-in reminder',
    body: 'A gentle reminder to update your weight this week: Monday morning, after the bathroom and before breakfast, on the same scale. It is the trend over weeks that matters, not one day.',
  },
  {
    title: 'Eating out',
    body: 'Eating out? Start with a clear soup or salad, choose tandoori, grilled or steamed over fried, one roti or phulka instead of naan, and share the dessert. Drink water between courses. Enjoy it: one meal does not undo a good week.',
  },
  {
    title: 'Plateau',
    body: 'A stall of 2 to 3 weeks is normal: the body adjusts. Let us check three things this week: sleep (7 hours?), water (2.5 litres?) and hidden oil in sabzis. Log everything for 5 days and we will look at it together at your next session.',
  },
  {
    title: 'Payment received',
    body: 'Thank you, your payment is received and your plan is active. You can download the invoice as a PDF from the app at any time.',
  },
].map((r) => savedReplyInput.parse(r));

/** A Saturday a week or more ahead that the dietitian takes off (shows a one-off change in the availability screen). */
function dayOffAfter(today: string): string {
  let day = addDays(today, 8);
  while (isoWeekday(day) !== 6) day = addDays(day, 1);
  return day;
}

export type DemoClinic = { billing: BillingSettings; availability: Availability; officeHours: OfficeHours };

export async function seedClinic(trx: Db, opts: { dietitianId: number; today: string; now: Date }): Promise<DemoClinic> {
  await paymentsRepo.saveBillingSettings(
    trx,
    {
      legal_name: BILLING.legalName,
      address: BILLING.address,
      state_code: BILLING.stateCode,
      gstin: BILLING.gstin,
      sac_code: BILLING.sacCode,
      tax_rate_bp: BILLING.taxRateBp,
      upi_vpa: BILLING.upiVpa,
      payee_name: BILLING.payeeName,
      invoice_prefix: BILLING.invoicePrefix,
    },
    opts.now,
  );

  const form: AvailabilityForm = availabilityForm.parse({
    consultationMinutes: 30,
    followUpMinutes: 30,
    bufferMinutes: 10,
    bookable: true,
    weekly: weeklyHours,
    exceptions: [{ day: dayOffAfter(opts.today), kind: 'off', note: 'Family function' }],
  });
  await replaceAvailability(trx, opts.dietitianId, availabilityRows(form));

  await messagesRepo.saveSettings(trx, {
    office_days: DEMO_OFFICE_HOURS.days?.join(',') ?? null,
    office_opens: DEMO_OFFICE_HOURS.opens,
    office_closes: DEMO_OFFICE_HOURS.closes,
    updated_by: opts.dietitianId,
    updated_at: opts.now,
  });
  for (const reply of SAVED_REPLIES) await messagesRepo.insertSavedReply(trx, { ...reply, created_by: opts.dietitianId });

  return {
    billing: BILLING,
    officeHours: DEMO_OFFICE_HOURS,
    availability: {
      dietitianId: opts.dietitianId,
      settings: { consultationMinutes: form.consultationMinutes, followUpMinutes: form.followUpMinutes, bufferMinutes: form.bufferMinutes },
      weekly: form.weekly,
      exceptions: form.exceptions,
    },
  };
}
