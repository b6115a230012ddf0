import { defineRoutes, untrusted } from '../rest/route.js';
import { notificationPreferences, setNotificationPreferencesInput } from './schema.js';

const TAG = 'Notifications';

export const notificationRoutes = defineRoutes([
  {
    method: 'get',
    path: '/notification-preferences',
    summary:
      'Your notification preferences: for messages, reminders, plans, appointments and payments, whether e-mail and push are on (both on until changed)',
    tag: TAG,
    auth: 'required',
    response: notificationPreferences,
    handle: async ({ caller }) => ({ message: 'Notification preferences', data: await caller.notifications.preferences() }),
  },
  {
    method: 'put',
    path: '/notification-preferences',
    summary:
      'Change your notification preferences: the categories and channels sent change ({ messages: { push: false } }), the others keep their saved values; answers the whole set',
    tag: TAG,
    auth: 'required',
    request: { body: setNotificationPreferencesInput },
    response: notificationPreferences,
    handle: async ({ caller, body }) => ({
      message: 'Notification preferences saved',
      data: await caller.notifications.setPreferences(untrusted(body)),
    }),
  },
]);
