import { useParams } from 'react-router-dom';
import { PageHeader } from '@/components/layout/page-header';

/** Route component of Customer Payment Details; the screen itself is built by the feature's developer. */
export default function CustomerPaymentDetailsRoute() {
  const { customerId = '' } = useParams();
  return <PageHeader title="Customer Payment Details" subtitle={`Customer ${customerId}`} />;
}
