import { lazy, Suspense } from 'react';
import { Route, Switch } from 'wouter';
import { Spinner } from '../components/Spinner';
import { lazyWithData } from '../lib/lazy-with-data';

// Each area is its own chunk: public pages never download the dashboard's code.
const PublicArea = lazy(() => import('../features/public/PublicArea'));
const DashboardArea = lazyWithData(() => import('../features/dashboard/DashboardArea'));
const AdminArea = lazyWithData(() => import('../features/admin/AdminArea'));
const CallArea = lazyWithData(() => import('../features/calls/CallArea'));

export function AppRoutes() {
  return (
    <Suspense fallback={<Spinner fullPage label="Loading" />}>
      <Switch>
        {/* A nested route matches its path and everything below it (/dashboard/feeds…). */}
        <Route path="/dashboard" nest>
          <DashboardArea />
        </Route>
        <Route path="/admin" nest>
          <AdminArea />
        </Route>
        <Route path="/call/guest/:id">
          <CallArea />
        </Route>
        <Route path="/call/:id">
          <CallArea />
        </Route>
        <Route>
          <PublicArea />
        </Route>
      </Switch>
    </Suspense>
  );
}
