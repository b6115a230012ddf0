import { publicFormLimits, takeSlot } from '../auth/rate-limit.js';
import { BRAND } from '../brand.js';
import { formatMoment, formatPhone, SERVICE_TIME_ZONE } from '../format.js';
import { bookingReceivedMail } from '../mail/templates.js';
import { findCountry } from '../countries/repo.js';
import type { AppDeps } from '../deps.js';
import { badRequest } from '../errors.js';
import { oneLine } from '../support/service.js';
import type { RequestMeta } from '../trpc/context.js';
import * as repo from './repo.js';
import { type BookConsultationInput, CHOOSE_A_COUNTRY, CONSULTATION_BOOKED, genderLabel } from './schema.js';

/**
 * Books a consultation (anyone may: visitors are the point), tells the team
 * by mail, and tells the visitor what happens next.
 */
export async function bookConsultation(deps: Pick<AppDeps, 'db' | 'mailer' | 'config'>, meta: RequestMeta, input: BookConsultationInput) {
  const country = await findCountry(deps.db, input.country);
  if (!country) throw badRequest(CHOOSE_A_COUNTRY, { country: [CHOOSE_A_COUNTRY] });
  await takeSlot(deps.db, 'consultation requests', publicFormLimits(deps.config.rateLimits, 'consultation', meta.ip, input.email));
  const saved = await repo.insertConsultation(deps.db, input);
  await deps.mailer.queue({
    to: BRAND.supportEmail,
    subject: oneLine(`Consultation request #${saved.id} from ${input.name}`),
    text: [
      `Name: ${input.name}`,
      `Email: ${input.email}`,
      `Contact: ${formatPhone(input.contact)}`,
      `Gender: ${genderLabel(input.gender)}`,
      `Age: ${input.age}`,
      `Height: ${input.height} ft`,
      `Weight: ${input.weight} kg`,
      `State: ${input.state}`,
      `Country: ${country.name}`,
      `Medical condition: ${input.isMedicalCondition ? 'Yes' : 'No'}`,
      `Received: ${formatMoment(saved.created_at, SERVICE_TIME_ZONE)}`,
    ].join('\n'),
  });
  await deps.mailer.queue(
    bookingReceivedMail({ to: input.email, name: input.name, phone: formatPhone(input.contact), bookingId: saved.id }),
  );
  return { message: CONSULTATION_BOOKED, data: { id: saved.id } };
}
