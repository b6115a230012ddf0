import { z } from 'zod';

/**
 * Notification preferences: for each category, e-mail and push
 * on or off; both on until the person changes them. zod only: the profile
 * screen's form uses these too.
 */

/**
 * What a person can turn e-mail and push on or off for: messages (and
 * comments on their journal), reminders (check-ins, renewals, appointment
 * reminders), plans, appointments (booked, moved, cancelled), payments.
 */
export type NotificationCategory = 'messages' | 'reminders' | 'plans' | 'appointments' | 'payments';
export const NOTIFICATION_CATEGORIES: readonly NotificationCategory[] = ['messages', 'reminders', 'plans', 'appointments', 'payments'];
export const NOTIFICATION_CHANNELS = ['email', 'push'] as const;

const onOff = (what: string) => z.boolean({ error: `${what} must be true or false` });

const channels = (category: NotificationCategory) =>
  z.strictObject({ email: onOff(`${category}.email`), push: onOff(`${category}.push`) }, { error: `${category} must be { email, push }` });

/** The whole set, as the server answers it. */
export const notificationPreferences = z.strictObject({
  messages: channels('messages'),
  reminders: channels('reminders'),
  plans: channels('plans'),
  appointments: channels('appointments'),
  payments: channels('payments'),
});
export type NotificationPreferences = z.infer<typeof notificationPreferences>;

/** A change: the categories and channels sent change, the others keep their saved values. */
export const setNotificationPreferencesInput = z
  .strictObject(
    {
      messages: channels('messages').partial().optional(),
      reminders: channels('reminders').partial().optional(),
      plans: channels('plans').partial().optional(),
      appointments: channels('appointments').partial().optional(),
      payments: channels('payments').partial().optional(),
    },
    { error: 'Send the preferences as { messages: { email, push }, … }' },
  )
  .refine((v) => Object.values(v).some((c) => c && Object.keys(c).length > 0), {
    message: `Send at least one of ${NOTIFICATION_CATEGORIES.join(', ')} with email or push to change.`,
  });
export type SetNotificationPreferencesInput = z.infer<typeof setNotificationPreferencesInput>;

export const DEFAULT_PREFERENCES: NotificationPreferences = {
  messages: { email: true, push: true },
  reminders: { email: true, push: true },
  plans: { email: true, push: true },
  appointments: { email: true, push: true },
  payments: { email: true, push: true },
};
