import { useParams } from 'react-router-dom';
import { PageHeader } from '@/components/layout/page-header';

/** Route component of Device Activity; the screen itself is built by the feature's developer. */
export default function DeviceActivityRoute() {
  const { serialNumber = '' } = useParams();
  return <PageHeader title="Device Activity" subtitle={`Serial number ${serialNumber}`} />;
}
