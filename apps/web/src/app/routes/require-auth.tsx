import { lazy, Suspense } from 'react';
import { Navigate, Outlet, useLocation, useNavigation } from 'react-router-dom';
import { FullPageLoader } from '@/components/ui/full-page-loader';
import { paths } from '@/config/paths';
import { useSession } from '@/lib/session';

// Its own chunk: only users of an organization that requires two-factor sign-in, without it, ever load it.
const TwoFactorGate = lazy(() => import('@/features/two-factor/routes/two-factor-gate'));

/**
 * Protected routes: a spinner while the session loads, else /login remembering
 * where the user was going. A user who must set up two-factor sign-in first
 * sees only that, at whatever address they were going to: it opens once done.
 */
export function RequireAuth() {
  const { isLoading, isAuthenticated, twoFactorSetupRequired } = useSession();
  const location = useLocation();
  const navigation = useNavigation();
  if (isLoading) return <FullPageLoader label="Checking your session" />;
  if (!isAuthenticated) {
    // Sign Out is already on its way to the landing page: let it arrive.
    if (navigation.state !== 'idle') return <FullPageLoader label="Signing out" />;
    return <Navigate to={paths.login.path} replace state={{ from: location }} />;
  }
  if (twoFactorSetupRequired) {
    return (
      <Suspense fallback={<FullPageLoader />}>
        <TwoFactorGate />
      </Suspense>
    );
  }
  return <Outlet />;
}
