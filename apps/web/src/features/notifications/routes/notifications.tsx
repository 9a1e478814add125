import { Grid } from '@mantine/core';
import { useSearchParams } from 'react-router-dom';
import { PageHeader } from '@/components/layout/page-header';
import { MyNotificationsList } from '../components/my-notifications-list';
import { NotificationSettingsCard } from '../components/notification-settings-card';

/** Notifications (from the bell's See All): every one of the user's own, and which kinds they are told of. */
export default function NotificationsRoute() {
  const [params, setParams] = useSearchParams();
  const unread = params.get('unread') === 'true';

  return (
    <>
      <PageHeader title="Notifications" subtitle="What happened to your work, newest first." />
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <MyNotificationsList unread={unread} onFilter={(next) => setParams(next ? { unread: 'true' } : {}, { replace: true })} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }}>
          <NotificationSettingsCard />
        </Grid.Col>
      </Grid>
    </>
  );
}
