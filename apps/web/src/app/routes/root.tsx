import { useEffect } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { SessionProvider } from '@/lib/session';

/** Each path change starts at the top of the page (hash and query changes do not). */
function ScrollToTop() {
  const { pathname } = useLocation();
  // The path is the trigger, not an input: scroll on every change of it.
  useEffect(() => {
    window.scrollTo(0, 0);
    // oxlint-disable-next-line react/exhaustive-effect-dependencies
  }, [pathname]);
  return null;
}

/** The session needs the router (it navigates on logout), so it lives in the root route. */
export function RootRoute() {
  return (
    <SessionProvider>
      <ScrollToTop />
      <Outlet />
    </SessionProvider>
  );
}
