import { BRAND } from '../brand.js';
import { findCountry } from '../countries/repo.js';
import type { AppDeps } from '../deps.js';
import { badRequest } from '../errors.js';
import { oneLine } from '../support/service.js';
import * as repo from './repo.js';
import { type BookConsultationInput, CHOOSE_A_COUNTRY, CONSULTATION_BOOKED, genderLabel } from './schema.js';

/** Books a consultation (anyone may: visitors are the point) and tells the team by mail. */
export async function bookConsultation(deps: Pick<AppDeps, 'db' | 'mailer'>, input: BookConsultationInput) {
  const country = await findCountry(deps.db, input.country);
  if (!country) throw badRequest(CHOOSE_A_COUNTRY, { country: [CHOOSE_A_COUNTRY] });
  const saved = await repo.insertConsultation(deps.db, input);
  await deps.mailer.queue({
    to: BRAND.supportEmail,
    subject: oneLine(`Consultation request #${saved.id} from ${input.name}`),
    text: [
      `Name: ${input.name}`,
      `Email: ${input.email}`,
      `Contact: ${input.contact}`,
      `Gender: ${genderLabel(input.gender)}`,
      `Age: ${input.age}`,
      `Height: ${input.height} ft`,
      `Weight: ${input.weight} kg`,
      `State: ${input.state}`,
      `Country: ${country.name}`,
      `Medical condition: ${input.isMedicalCondition ? 'Yes' : 'No'}`,
      `Received: ${saved.created_at.toISOString()}`,
    ].join('\n'),
  });
  return { message: CONSULTATION_BOOKED, data: { id: saved.id } };
}
