import { Navigate, useLocation } from 'react-router-dom';
import { FullPageLoader } from '@/components/ui/full-page-loader';
import { paths } from '@/config/paths';
import { useSession } from '@/lib/session';
import { AuthLayout } from '../components/auth-layout';
import { LoginForm } from '../components/login-form';

/** Where to go after sign-in: the page the visitor was sent away from, else the dashboard. */
export function redirectTarget(state: unknown): string {
  const from = (state as { from?: unknown } | null)?.from;
  let target: string | null = null;
  if (typeof from === 'string') target = from;
  else if (from && typeof from === 'object' && typeof (from as { pathname?: unknown }).pathname === 'string') {
    const { pathname, search = '', hash = '' } = from as { pathname: string; search?: string; hash?: string };
    target = `${pathname}${search}${hash}`;
  }
  // Only in-app paths, and never back to the sign-in or landing page.
  if (!target || !target.startsWith('/') || target.startsWith('//')) return paths.app.dashboard.getHref();
  if (target === paths.home.path || target.startsWith(paths.login.path)) return paths.app.dashboard.getHref();
  return target;
}

export default function LoginRoute() {
  const { isAuthenticated, isLoading } = useSession();
  const location = useLocation();

  if (isLoading) return <FullPageLoader label="Checking your session" />;
  if (isAuthenticated) return <Navigate to={redirectTarget(location.state)} replace />;

  return (
    <AuthLayout title="Sign in to Kidogo" subtitle="Use the username and password your organization gave you.">
      <LoginForm />
    </AuthLayout>
  );
}
