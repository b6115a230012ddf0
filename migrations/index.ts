import type { Migration } from 'kysely';
import * as initial from './2026-11-22T0900_initial.js';
import * as admin from './2026-11-22T1500_admin.js';
import * as sessionFamilyStart from './2026-11-23T1000_session_family_start.js';
import * as outboxWithoutCredentials from './2026-11-23T1200_outbox_without_credentials.js';
import * as followUp from './2026-11-23T1300_follow_up.js';
import * as feedLikeCount from './2026-11-23T1400_feed_like_count.js';
import * as selfService from './2026-11-23T1500_self_service.js';
import * as outboxUnsettled from './2026-11-23T1600_outbox_unsettled.js';
import * as feedEventCounts from './2026-11-23T2300_feed_event_counts.js';
import * as feedChangedNotify from './2026-11-24T0300_feed_changed_notify.js';
import * as feedEventQuietsTrigger from './2026-11-24T0600_feed_event_quiets_trigger.js';
import * as repeatSafeWrites from './2026-11-26T0200_repeat_safe_writes.js';
import * as attachments from './2026-11-26T0700_attachments.js';
import * as messages from './2026-11-26T0710_messages.js';
import * as invoices from './2026-11-26T0720_invoices.js';
import * as messageAttachments from './2026-11-26T0730_message_attachments.js';
import * as push from './2026-11-26T0800_push.js';
import * as careRecord from './2026-11-26T0810_care_record.js';
import * as mealJournal from './2026-11-26T0820_meal_journal.js';
import * as appointments from './2026-11-26T0830_appointments.js';
import * as calls from './2026-11-26T0840_calls.js';
import * as razorpayEvents from './2026-11-26T0860_razorpay_events.js';
import * as messageSendInOneCall from './2026-11-26T0900_message_send_in_one_call.js';
import * as messageSendBatch from './2026-11-26T1000_message_send_batch.js';
import * as consultationHolds from './2026-11-28T0600_consultation_holds.js';
import * as pushOwnershipAndVapid from './2026-11-28T0610_push_ownership_and_vapid.js';
import * as claimUtrOpenOnce from './2026-11-28T0620_claim_utr_open_once.js';
import * as callGuestLinks from './2026-11-28T1000_call_guest_links.js';
import * as callSeatClaimedAt from './2026-11-28T1001_call_seat_claimed_at.js';
import * as consultationTimeZone from './2026-11-28T1010_consultation_time_zone.js';
import * as offlinePayments from './2026-11-28T1060_offline_payments.js';
import * as foodLibrary from './2026-11-28T2000_food_library.js';
import * as messageRulesAsDefinitions from './2026-11-28T2300_message_rules_as_definitions.js';

/**
 * Every migration, in order. Imported statically so the same list runs under
 * tsx, vitest and any bundler; tests/integration/schema.test.ts checks that
 * each file in this folder is listed.
 */
export const migrations: Record<string, Migration> = {
  '2026-11-22T0900_initial': initial,
  '2026-11-22T1500_admin': admin,
  '2026-11-23T1000_session_family_start': sessionFamilyStart,
  '2026-11-23T1200_outbox_without_credentials': outboxWithoutCredentials,
  '2026-11-23T1300_follow_up': followUp,
  '2026-11-23T1400_feed_like_count': feedLikeCount,
  '2026-11-23T1500_self_service': selfService,
  '2026-11-23T1600_outbox_unsettled': outboxUnsettled,
  '2026-11-23T2300_feed_event_counts': feedEventCounts,
  '2026-11-24T0300_feed_changed_notify': feedChangedNotify,
  '2026-11-24T0600_feed_event_quiets_trigger': feedEventQuietsTrigger,
  '2026-11-26T0200_repeat_safe_writes': repeatSafeWrites,
  '2026-11-26T0700_attachments': attachments,
  '2026-11-26T0710_messages': messages,
  '2026-11-26T0720_invoices': invoices,
  '2026-11-26T0730_message_attachments': messageAttachments,
  '2026-11-26T0800_push': push,
  '2026-11-26T0810_care_record': careRecord,
  '2026-11-26T0820_meal_journal': mealJournal,
  '2026-11-26T0830_appointments': appointments,
  '2026-11-26T0840_calls': calls,
  '2026-11-26T0860_razorpay_events': razorpayEvents,
  '2026-11-26T0900_message_send_in_one_call': messageSendInOneCall,
  '2026-11-26T1000_message_send_batch': messageSendBatch,
  '2026-11-28T0600_consultation_holds': consultationHolds,
  '2026-11-28T0610_push_ownership_and_vapid': pushOwnershipAndVapid,
  '2026-11-28T0620_claim_utr_open_once': claimUtrOpenOnce,
  '2026-11-28T1000_call_guest_links': callGuestLinks,
  '2026-11-28T1001_call_seat_claimed_at': callSeatClaimedAt,
  '2026-11-28T1010_consultation_time_zone': consultationTimeZone,
  '2026-11-28T1060_offline_payments': offlinePayments,
  '2026-11-28T2000_food_library': foodLibrary,
  '2026-11-28T2300_message_rules_as_definitions': messageRulesAsDefinitions,
};
