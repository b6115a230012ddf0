import { z } from 'zod';
import { defineRoutes, type RestRoute, untrusted } from '../rest/route.js';
import {
  clientQuery,
  createDocumentInput,
  createGoalsInput,
  createMeasurementInput,
  createProgressPhotoInput,
  documentItem,
  goalsOverview,
  intake,
  measurement,
  progressPhoto,
  saveIntakeInput,
  savedDocument,
  savedGoals,
  savedMeasurement,
  savedProgressPhoto,
} from './schema.js';

const TAG = 'Care record';
const LIMIT_429 = 'Too many additions to this client’s record (RATE_LIMIT_CARE_RECORD; see Retry-After)';
const REPEAT = 'The clientRequestId was sent before: the first one, with repeated: true; nothing new is stored';

/** A create of the record: 201 for a new one, 200 with the first when its clientRequestId was sent before. */
const created = (what: string, saved: { repeated: boolean }) =>
  saved.repeated
    ? { status: 200 as const, message: `This ${what} was saved already.`, data: saved }
    : { status: 201 as const, message: `${what[0]!.toUpperCase()}${what.slice(1)} saved.`, data: saved };

export const careRecordRoutes: RestRoute[] = defineRoutes([
  {
    method: 'get',
    path: '/intake',
    summary:
      'A client’s intake questionnaire: its answers so far and whether it is finished (state not-started, in-progress or done). A dietitian passes clientId',
    tag: TAG,
    auth: 'required',
    clientData: true,
    request: { query: clientQuery },
    response: intake,
    handle: async ({ caller, query }) => ({ message: 'Intake loaded', data: await caller.careRecord.intake.get(untrusted(query)) }),
  },
  {
    method: 'put',
    path: '/intake',
    summary:
      'Saves the intake questionnaire as it stands (the answers replace those saved; each is checked on its own). With complete: true the required answers (diet pattern, a typical day, activity level, sleep, goals) must be there; once finished it stays finished',
    tag: TAG,
    auth: 'required',
    clientData: true,
    request: { body: saveIntakeInput },
    response: intake,
    errors: { 429: 'Too many saves of this client’s questionnaire (RATE_LIMIT_INTAKE_SAVES; see Retry-After)' },
    handle: async ({ caller, body }) => {
      const saved = await caller.careRecord.intake.save(untrusted(body));
      return { message: saved.state === 'done' ? 'Intake saved.' : 'Intake saved as a draft.', data: saved };
    },
  },
  {
    method: 'get',
    path: '/goals',
    summary: 'A client’s current goals (the newest setting), progress towards them, and the earlier settings, newest first',
    tag: TAG,
    auth: 'required',
    clientData: true,
    request: { query: clientQuery },
    response: goalsOverview,
    handle: async ({ caller, query }) => ({ message: 'Goals loaded', data: await caller.careRecord.goals.get(untrusted(query)) }),
  },
  {
    method: 'post',
    path: '/goals',
    summary:
      'Sets a client’s goals (they replace the current ones; earlier settings are kept): target weight with its date (after today, India time), waist, daily water glasses, daily steps, a habit in words. 201 new; 200 with the first on a repeated clientRequestId',
    tag: TAG,
    auth: 'required',
    clientData: true,
    request: { body: createGoalsInput },
    response: savedGoals,
    successStatus: 201,
    repeatAnswer: REPEAT,
    errors: { 429: LIMIT_429 },
    handle: async ({ caller, body }) => created('goal setting', await caller.careRecord.goals.create(untrusted(body))),
  },
  {
    method: 'get',
    path: '/measurements',
    summary: 'A client’s body measurements (waist, hip, chest, arm, thigh in cm), newest first',
    tag: TAG,
    auth: 'required',
    clientData: true,
    request: { query: clientQuery },
    response: z.array(measurement),
    handle: async ({ caller, query }) => ({
      message: 'Measurements loaded',
      data: await caller.careRecord.measurements.list(untrusted(query)),
    }),
  },
  {
    method: 'post',
    path: '/measurements',
    summary:
      'Records body measurements on a date (not in the future, India time): at least one of waist, hip, chest, arm, thigh, each 10–250 cm. 201 new; 200 with the first on a repeated clientRequestId',
    tag: TAG,
    auth: 'required',
    clientData: true,
    request: { body: createMeasurementInput },
    response: savedMeasurement,
    successStatus: 201,
    repeatAnswer: REPEAT,
    errors: { 429: LIMIT_429 },
    handle: async ({ caller, body }) => created('measurement', await caller.careRecord.measurements.create(untrusted(body))),
  },
  {
    method: 'get',
    path: '/progress-photos',
    summary:
      'A client’s progress photos (front and side), newest date first, with short-lived signed links. Only the client and the dietitians see them',
    tag: TAG,
    auth: 'required',
    clientData: true,
    request: { query: clientQuery },
    response: z.array(progressPhoto),
    handle: async ({ caller, query }) => ({
      message: 'Progress photos loaded',
      data: await caller.careRecord.progressPhotos.list(untrusted(query)),
    }),
  },
  {
    method: 'post',
    path: '/progress-photos',
    summary:
      'Adds a progress photo: upload it first (POST /api/attachments, a JPEG, PNG or WebP of at most 10 MB), then send its id with the date and pose (front or side). 201 new; 200 with the first on a repeated clientRequestId',
    tag: TAG,
    auth: 'required',
    clientData: true,
    request: { body: createProgressPhotoInput },
    response: savedProgressPhoto,
    successStatus: 201,
    repeatAnswer: REPEAT,
    errors: {
      400: 'A bad value, a date in the future, a PDF instead of a photo, or an upload that is not the sender’s own, unused and of the last day',
      429: LIMIT_429,
    },
    handle: async ({ caller, body }) => created('progress photo', await caller.careRecord.progressPhotos.create(untrusted(body))),
  },
  {
    method: 'get',
    path: '/documents',
    summary:
      'A client’s documents by date, newest first: lab reports, prescriptions and other files uploaded by the client or a dietitian, and every file sent in the conversation (kind conversation)',
    tag: TAG,
    auth: 'required',
    clientData: true,
    request: { query: clientQuery },
    response: z.array(documentItem),
    handle: async ({ caller, query }) => ({ message: 'Documents loaded', data: await caller.careRecord.documents.list(untrusted(query)) }),
  },
  {
    method: 'post',
    path: '/documents',
    summary:
      'Adds a document to a client’s record: upload the PDF or photo first (POST /api/attachments), then send its id with the kind (lab-report, prescription, other), a title and the document’s date. 201 new; 200 with the first on a repeated clientRequestId',
    tag: TAG,
    auth: 'required',
    clientData: true,
    request: { body: createDocumentInput },
    response: savedDocument,
    successStatus: 201,
    repeatAnswer: REPEAT,
    errors: {
      400: 'A bad value, a date in the future, or an upload that is not the sender’s own, unused and of the last day',
      429: LIMIT_429,
    },
    handle: async ({ caller, body }) => created('document', await caller.careRecord.documents.create(untrusted(body))),
  },
]);
