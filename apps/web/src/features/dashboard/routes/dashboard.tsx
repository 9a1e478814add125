import { PageHeader } from '@/components/layout/page-header';

/** Route component of Dashboard; the screen itself is built by the feature's developer. */
export default function DashboardRoute() {
  return <PageHeader title="Dashboard"
      subtitle="Manage your pay-as-you-go services: customers, payments, tokens and system health at a glance." />;
}
