import { PageHeader } from '@/components/layout/page-header';

/** Route component of Reports; the screen itself is built by the feature's developer. */
export default function ReportsRoute() {
  return <PageHeader title="Reports" />;
}
