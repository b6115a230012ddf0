/**
 * Appointments (decision 119): free slots from each dietitian's availability, booking against the
 * plan's entitlement, moves and cancellations under the 12-hour rule, and the mails (with .ics) that go
 * with each. The database has the last word on double booking: the exclusion constraint
 * appointments_no_overlap refuses a second appointment over a dietitian's time, whatever raced; that
 * refusal answers 409 with the next free slots.
 *
 * One use case per file; this module is the door the routers and the consultation requests use:
 * offer.ts (free times), entitlement.ts (what a plan includes), book.ts, holds.ts (a visitor's held
 * time), change.ts (move, cancel, mark), calendar.ts (lists and the .ics), availability.ts (a
 * dietitian's hours), telling.ts (the mails and pushes of a change), views.ts (what a reader sees).
 */
export { availabilityOf, availabilityRows, saveAvailability } from './availability.js';
export { book } from './book.js';
export { calendar, icsOf, myAppointments, today } from './calendar.js';
export { cancel, mark, reschedule } from './change.js';
export { entitlementOf, FOLLOW_UPS_PER_MONTH_SHORT_PLAN } from './entitlement.js';
export {
  confirmHeldTime,
  consultationSlotOffer,
  consultationTaken,
  type HoldOutcome,
  type PlacedHold,
  placeConsultationHold,
  releaseHoldOf,
  SlotTaken,
  visitorMoment,
} from './holds.js';
export { listSlots } from './offer.js';
export { type AppointmentDeps, callPathOf, DEFAULT_SETTINGS } from './shared.js';
export { appointmentFor, toMailAppointment, toView } from './views.js';
