import { Navigate, Outlet, useLocation, useNavigation } from 'react-router-dom';
import { FullPageLoader } from '@/components/ui/full-page-loader';
import { paths } from '@/config/paths';
import { useSession } from '@/lib/session';

/** Protected routes: a spinner while the session loads, else /login remembering where the user was going. */
export function RequireAuth() {
  const { isLoading, isAuthenticated } = useSession();
  const location = useLocation();
  const navigation = useNavigation();
  if (isLoading) return <FullPageLoader label="Checking your session" />;
  if (!isAuthenticated) {
    // Sign Out is already on its way to the landing page: let it arrive.
    if (navigation.state !== 'idle') return <FullPageLoader label="Signing out" />;
    return <Navigate to={paths.login.path} replace state={{ from: location }} />;
  }
  return <Outlet />;
}
