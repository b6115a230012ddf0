import { Home, SearchX } from 'lucide-react';
import { Link, Redirect, Route, Switch } from 'wouter';
import { buttonClasses } from '../../components/ui/Button';
import { Page } from '../../components/ui/Page';
import { EmptyState } from '../../components/ui/States';
import { AppointmentsPage } from '../appointments/AppointmentsPage';
import { Spinner } from '../../components/Spinner';
import { useSessionInfo, useSignedIn } from '../../lib/use-session';
import { CheckBmiPage } from './bmi/CheckBmiPage';
import { CheckInPage } from './check-in/CheckInPage';
import { DashboardShell } from './DashboardShell';
import { DietPlansPage } from './diet-plans/DietPlansPage';
import { FeedsPage } from './feeds/FeedsPage';
import { MessagesPage } from './messages/MessagesPage';
import { JournalPage } from '../journal/JournalPage';
import { WriteReviewPage } from './review/WriteReviewPage';
import { PaymentsPage } from './payments/PaymentsPage';
import { ProfilePage } from './profile/ProfilePage';
import { ActiveSubscriptionPage } from './subscription/ActiveSubscriptionPage';
import { useDashboardCheck } from './use-dashboard-session';
import { UpdateWeightPage } from './weight/UpdateWeightPage';
import { WeightHistoryPage } from './weight/WeightHistoryPage';
import { HydrationMark } from '../../components/HydrationMark';
import { DocumentsPage } from '../care-record/DocumentsPage';
import { IntakePage } from '../care-record/IntakePage';
import { IntakePrompt } from '../care-record/IntakePrompt';
import { ProgressPage } from '../care-record/ProgressPage';
import { useOfflineDashboard } from './offline/use-offline-dashboard';
import { useRenewedPushSubscription } from './profile/use-renewed-push';

/**
 * The lazy chunk for /dashboard and /dashboard/*, mounted with `nest`: paths
 * in here are relative ('/feeds'); '~/' leaves the dashboard.
 * Signed-out users on any dashboard path go to the root.
 */
export default function DashboardArea() {
  const signedIn = useSignedIn();
  if (!signedIn) return <Redirect to="~/" replace />;
  return (
    <>
      <SignedInDashboard />
      <HydrationMark />
    </>
  );
}

/** The dashboard's last data comes back from this device first (offline it is all there is). */
function SignedInDashboard() {
  const userId = useSessionInfo()?.id ?? null;
  const { ready } = useOfflineDashboard(userId);
  useRenewedPushSubscription(userId);
  if (!ready) return <Spinner fullPage label="Loading" />;
  return <DashboardRoutes />;
}

function DashboardRoutes() {
  useDashboardCheck();
  return (
    <DashboardShell>
      <IntakePrompt />
      <Switch>
        <Route path="/">
          <Redirect to="/feeds" replace />
        </Route>
        <Route path="/feeds" component={FeedsPage} />
        <Route path="/messages" component={MessagesPage} />
        <Route path="/journal" component={JournalPage} />
        <Route path="/write-review" component={WriteReviewPage} />
        <Route path="/check-bmi" component={CheckBmiPage} />
        <Route path="/diet-plan" component={DietPlansPage} />
        <Route path="/update-weight" component={UpdateWeightPage} />
        <Route path="/weight-history" component={WeightHistoryPage} />
        <Route path="/active-subscription" component={ActiveSubscriptionPage} />
        <Route path="/profile" component={ProfilePage} />
        <Route path="/check-in" component={CheckInPage} />
        <Route path="/payments" component={PaymentsPage} />
        <Route path="/appointments" component={AppointmentsPage} />
        <Route path="/intake" component={IntakePage} />
        <Route path="/progress" component={ProgressPage} />
        <Route path="/documents" component={DocumentsPage} />
        <Route component={DashboardNotFound} />
      </Switch>
    </DashboardShell>
  );
}

/** The same 404 words and button as the public site, inside the dashboard frame. */
function DashboardNotFound() {
  return (
    <Page title="Page not found">
      <EmptyState Icon={SearchX}>Oops! The page you're looking for doesn't exist.</EmptyState>
      <div className="flex justify-center">
        <Link href="~/" className={buttonClasses('primary')}>
          <Home className="h-5 w-5" aria-hidden="true" />
          Go Back Home
        </Link>
      </div>
    </Page>
  );
}
