import { defineRoutes, untrusted } from '../rest/route.js';
import { MAX_PUSH_SUBSCRIPTIONS_PER_PERSON, MAX_PUSH_SUBSCRIPTIONS_PER_SIGN_IN } from './service.js';
import { publicKeyOutput, subscribeInput, subscribedOutput, unsubscribeInput, unsubscribedOutput } from './schema.js';

const TAG = 'Notifications';

export const pushRoutes = defineRoutes([
  {
    method: 'get',
    path: '/push/public-key',
    summary: 'The server’s VAPID public key (URL-safe base64): pass it to pushManager.subscribe as applicationServerKey',
    tag: TAG,
    auth: 'none',
    response: publicKeyOutput,
    handle: async ({ caller }) => ({ message: 'Push public key', data: await caller.push.publicKey() }),
  },
  {
    method: 'post',
    path: '/push/subscriptions',
    summary: `Register this browser for push notifications: the PushSubscription’s endpoint and keys (p256dh, auth). Tied to this sign-in: signing this device out removes it. The endpoint must be an https address of a push service on the allow-list (PUSH_ALLOWED_HOSTS); the same endpoint again replaces your earlier registration of it (never another person’s). Each sign-in keeps its newest ${MAX_PUSH_SUBSCRIPTIONS_PER_SIGN_IN} devices and each person their newest ${MAX_PUSH_SUBSCRIPTIONS_PER_PERSON}: a registration beyond that removes the oldest`,
    tag: TAG,
    auth: 'required',
    request: { body: subscribeInput },
    response: subscribedOutput,
    successStatus: 201,
    handle: async ({ caller, body }) => ({
      status: 201,
      message: 'Push notifications are on for this device',
      data: await caller.push.subscribe(untrusted(body)),
    }),
  },
  {
    method: 'delete',
    path: '/push/subscriptions',
    summary: 'Remove one of your push subscriptions by its endpoint (the browser unsubscribed); removed is false when there was none',
    tag: TAG,
    auth: 'required',
    request: { body: unsubscribeInput },
    response: unsubscribedOutput,
    handle: async ({ caller, body }) => {
      const result = await caller.push.unsubscribe(untrusted(body));
      return { message: result.removed ? 'Push notifications are off for this device' : 'No such subscription', data: result };
    },
  },
]);
