import { PageHeader } from '@/components/layout/page-header';

/** Route component of Payment Templates; the screen itself is built by the feature's developer. */
export default function PaymentTemplatesRoute() {
  return <PageHeader title="Payment Templates" />;
}
