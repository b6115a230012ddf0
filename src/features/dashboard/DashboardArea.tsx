import { SearchX } from 'lucide-react';
import { Link, Redirect, Route, Switch } from 'wouter';
import { buttonClasses } from '../../components/ui/Button';
import { Page } from '../../components/ui/Page';
import { EmptyState } from '../../components/ui/States';
import { useSignedIn } from '../../lib/use-session';
import { CheckBmiPage } from './bmi/CheckBmiPage';
import { DashboardShell } from './DashboardShell';
import { DietPlansPage } from './diet-plans/DietPlansPage';
import { FeedsPage } from './feeds/FeedsPage';
import { WriteReviewPage } from './review/WriteReviewPage';
import { ActiveSubscriptionPage } from './subscription/ActiveSubscriptionPage';
import { useDashboardCheck } from './use-dashboard-session';
import { UpdateWeightPage } from './weight/UpdateWeightPage';
import { WeightHistoryPage } from './weight/WeightHistoryPage';

/**
 * The lazy chunk for /dashboard and /dashboard/*, mounted with `nest`: paths
 * in here are relative ('/feeds'); '~/' leaves the dashboard.
 * Signed-out users on any dashboard path go to the root (spec 2).
 */
export default function DashboardArea() {
  const signedIn = useSignedIn();
  if (!signedIn) return <Redirect to="~/" replace />;
  return <SignedInDashboard />;
}

function SignedInDashboard() {
  useDashboardCheck();
  return (
    <DashboardShell>
      <Switch>
        <Route path="/">
          <Redirect to="/feeds" replace />
        </Route>
        <Route path="/feeds" component={FeedsPage} />
        <Route path="/write-review" component={WriteReviewPage} />
        <Route path="/check-bmi" component={CheckBmiPage} />
        <Route path="/diet-plan" component={DietPlansPage} />
        <Route path="/update-weight" component={UpdateWeightPage} />
        <Route path="/weight-history" component={WeightHistoryPage} />
        <Route path="/active-subscription" component={ActiveSubscriptionPage} />
        <Route component={DashboardNotFound} />
      </Switch>
    </DashboardShell>
  );
}

function DashboardNotFound() {
  return (
    <Page title="Page not found">
      <EmptyState Icon={SearchX}>Oops! The page you're looking for doesn't exist.</EmptyState>
      <div className="flex justify-center">
        <Link href="/feeds" className={buttonClasses('primary')}>
          Go to Feeds
        </Link>
      </div>
    </Page>
  );
}
