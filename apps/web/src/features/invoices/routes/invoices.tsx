import { PageHeader } from '@/components/layout/page-header';

/** Route component of Invoices; the screen itself is built by the feature's developer. */
export default function InvoicesRoute() {
  return <PageHeader title="Invoices" />;
}
