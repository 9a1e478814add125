import { PageHeader } from '@/components/layout/page-header';
import { ErrorAlert } from '@/components/ui/error-alert';
import { useSession } from '@/lib/session';

/** Route component of the Super Admin Dashboard; the tabs are built by the feature's developer. */
export default function SuperAdminRoute() {
  const { user } = useSession();
  if (user?.role !== 'super_admin') {
    return (
      <ErrorAlert
        title="Access Denied"
        message="Access Denied - You need super admin privileges to access this page."
      />
    );
  }
  return (
    <PageHeader
      title="Super Admin Dashboard"
      subtitle="Manage organizations, settings and platform-wide configuration."
    />
  );
}
