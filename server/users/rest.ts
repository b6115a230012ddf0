import { defineRoutes, untrusted } from '../rest/route.js';
import { profileOutput, updateProfileInput } from './schema.js';

const TAG = 'Profile';

export const profileRoutes = defineRoutes([
  {
    method: 'get',
    path: '/profile',
    summary: 'The signed-in user’s own profile',
    tag: TAG,
    auth: 'required',
    response: profileOutput,
    handle: async ({ caller }) => ({ message: 'Your profile', data: await caller.profile.get() }),
  },
  {
    method: 'put',
    path: '/profile',
    summary: 'Change the own profile: only the fields sent change, the others keep their saved values',
    tag: TAG,
    auth: 'required',
    request: { body: updateProfileInput },
    response: profileOutput,
    handle: async ({ caller, body }) => caller.profile.update(untrusted(body)),
  },
]);
