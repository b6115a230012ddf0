import { authedProcedure, router } from '../trpc/init.js';
import { getPreferences, setPreferences } from './preferences.js';
import { notificationPreferences, setNotificationPreferencesInput } from './schema.js';

/** The signed-in person's notification preferences: e-mail and push per category. */
export const notificationsRouter = router({
  preferences: authedProcedure.output(notificationPreferences).query(({ ctx }) => getPreferences(ctx.deps.db, ctx.user)),
  setPreferences: authedProcedure
    .input(setNotificationPreferencesInput)
    .output(notificationPreferences)
    .mutation(({ ctx, input }) => setPreferences(ctx.deps.db, ctx.user, input)),
});
