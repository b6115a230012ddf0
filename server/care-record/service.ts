/**
 * The care record's rules (decision 117). Every call names one client's record through
 * clientToActFor: a client only their own (403 for another), a dietitian any client who exists.
 * Calendar days are India's (no client has a time zone on file yet), and every create is counted per
 * client against RATE_LIMIT_CARE_RECORD, a repeat of its clientRequestId returning the first.
 *
 * One use case per file; this module is the door the router uses: intake.ts, goals.ts,
 * measurements.ts, files.ts (progress photos and documents), shared.ts (what they share).
 */
export { createProgressPhoto, createDocument, listDocuments, listProgressPhotos } from './files.js';
export { createGoals, goalsOverview } from './goals.js';
export { getIntake, intakeMissingAmong, saveIntake } from './intake.js';
export { createMeasurement, listMeasurements } from './measurements.js';
export type { CareRecordDeps } from './shared.js';
