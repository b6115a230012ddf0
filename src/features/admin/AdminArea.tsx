import { AvailabilityPage } from '../appointments/console/AvailabilityPage';
import { AppointmentsCalendarPage } from '../appointments/console/CalendarPage';
import { SearchX, ShieldAlert } from 'lucide-react';
import { Link, Redirect, Route, Switch } from 'wouter';
import { buttonClasses } from '../../components/ui/Button';
import { useSignedIn } from '../../lib/use-session';
import { useSignOut } from '../../lib/use-sign-out';
import { AdminLoginPage } from './AdminLoginPage';
import { AdminShell } from './AdminShell';
import { AuditPage } from './audit/AuditPage';
import { BookingsPage } from './bookings/BookingsPage';
import { EditClientPage, NewClientPage } from './clients/ClientFormPages';
import { ClientPage } from './clients/ClientPage';
import { ClientsPage } from './clients/ClientsPage';
import { DietPlanEditorPage } from './diet-plans/DietPlanEditorPage';
import { DietPlanPage } from './diet-plans/DietPlanPage';
import { DietPlansPage } from './diet-plans/DietPlansPage';
import { FeedAdminPage } from './feed/FeedAdminPage';
import { FollowUpsPage } from './follow-ups/FollowUpsPage';
import { MessageSettingsPage } from './messages/MessageSettingsPage';
import { MessagesInboxPage } from './messages/MessagesInboxPage';
import { OutboxPage } from './outbox/OutboxPage';
import { OverviewPage } from './overview/OverviewPage';
import { PaymentsPage } from './payments/PaymentsPage';
import { ReviewsPage } from './reviews/ReviewsPage';
import { SubscriptionsPage } from './subscriptions/SubscriptionsPage';
import { SupportPage } from './support/SupportPage';
import { EmptyState, LoadError, Loading, Page } from './ui';
import { useAdminCheck } from './use-admin-session';
import { HydrationMark } from '../../components/HydrationMark';
import { FoodEditorPage, NewFoodPage } from '../nutrition/console/FoodEditorPage';
import { FoodsPage } from '../nutrition/console/FoodsPage';
import { EditRecipePage, NewRecipePage } from '../nutrition/recipes/RecipeEditorPage';

/**
 * The dietitian console: its own lazy chunk, mounted at /admin with `nest`
 * (paths in here are relative; '~/' leaves the console). Every screen's data
 * comes from admin.* procedures, which check the role on the server too.
 */
export default function AdminArea() {
  return (
    <>
      <Switch>
        <Route path="/login" component={AdminLoginPage} />
        <Route>
          <SignedInConsole />
        </Route>
      </Switch>
      <HydrationMark />
    </>
  );
}

function SignedInConsole() {
  const signedIn = useSignedIn();
  if (!signedIn) return <Redirect to="/login" replace />;
  return <Console />;
}

function Console() {
  const { check, user, isAdmin } = useAdminCheck();
  const signOut = useSignOut();
  if (check.isPending) return <Loading label="Checking your session" />;
  if (!user) return <LoadError error={check.error} onRetry={() => void check.refetch()} />;
  if (!isAdmin) return <NotADietitian onSignOut={() => void signOut()} />;
  return (
    <AdminShell name={user.fullName} onSignOut={() => void signOut()}>
      <Switch>
        <Route path="/" component={OverviewPage} />
        <Route path="/clients" component={ClientsPage} />
        <Route path="/clients/new" component={NewClientPage} />
        <Route path="/clients/:id/edit" component={EditClientPage} />
        <Route path="/clients/:id" component={ClientPage} />
        <Route path="/follow-ups" component={FollowUpsPage} />
        <Route path="/appointments" component={AppointmentsCalendarPage} />
        <Route path="/appointments/availability" component={AvailabilityPage} />
        <Route path="/messages" component={MessagesInboxPage} />
        <Route path="/messages/settings" component={MessageSettingsPage} />
        <Route path="/messages/:id" component={MessagesInboxPage} />
        <Route path="/feed" component={FeedAdminPage} />
        <Route path="/diet-plans" component={DietPlansPage} />
        <Route path="/diet-plans/new" component={DietPlanEditorPage} />
        <Route path="/diet-plans/:id/edit" component={DietPlanEditorPage} />
        <Route path="/diet-plans/:id" component={DietPlanPage} />
        <Route path="/foods" component={FoodsPage} />
        <Route path="/foods/new" component={NewFoodPage} />
        <Route path="/foods/recipes/new" component={NewRecipePage} />
        <Route path="/foods/recipes/:id" component={EditRecipePage} />
        <Route path="/foods/:id" component={FoodEditorPage} />
        <Route path="/subscriptions" component={SubscriptionsPage} />
        <Route path="/payments" component={PaymentsPage} />
        <Route path="/bookings" component={BookingsPage} />
        <Route path="/support" component={SupportPage} />
        <Route path="/reviews" component={ReviewsPage} />
        <Route path="/outbox" component={OutboxPage} />
        <Route path="/audit" component={AuditPage} />
        <Route component={ConsoleNotFound} />
      </Switch>
    </AdminShell>
  );
}

function NotADietitian({ onSignOut }: { onSignOut: () => void }) {
  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-50 px-4">
      <div className="max-w-md rounded-2xl border border-slate-200 bg-white p-8 text-center shadow-sm">
        <ShieldAlert className="mx-auto h-10 w-10 text-amber-600" aria-hidden="true" />
        <h1 className="mt-3 text-xl font-bold text-slate-900">This area is for the dietitian team</h1>
        <p className="mt-2 text-slate-600">You are signed in with a client account. Your dashboard has everything for you.</p>
        <div className="mt-6 flex flex-wrap justify-center gap-3">
          <Link href="~/dashboard/feeds" className={buttonClasses('primary')}>
            Go to my dashboard
          </Link>
          <button type="button" className={buttonClasses('secondary')} onClick={onSignOut}>
            Sign out
          </button>
        </div>
      </div>
    </main>
  );
}

function ConsoleNotFound() {
  return (
    <Page title="Page not found">
      <EmptyState Icon={SearchX}>There is no console page here.</EmptyState>
      <div className="flex justify-center">
        <Link href="/" className={buttonClasses('primary')}>
          Back to the overview
        </Link>
      </div>
    </Page>
  );
}
