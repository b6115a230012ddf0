let started = false;

/**
 * Fetches and evaluates the dashboard's code while a client is still signing in (the login form's
 * first focus calls it), so the dashboard's frame shows the moment she is in: on slow 3G its chunks
 * took seconds after the sign-in answer, behind a blank spinner. It waits for an idle moment, so it
 * never competes with the page's own work, and it never runs while the login page loads (Lighthouse
 * and the page's JavaScript at load are unchanged: nothing is focused then). A failed fetch (offline)
 * is tried again on the next call.
 */
export function prefetchDashboard(): void {
  if (started) return;
  started = true;
  const load = () =>
    void import('./DashboardArea').catch(() => {
      started = false;
    });
  if ('requestIdleCallback' in window) window.requestIdleCallback(load, { timeout: 2000 });
  else setTimeout(load, 0);
}
