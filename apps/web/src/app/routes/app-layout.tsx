import { Progress } from '@mantine/core';
import { Outlet, useNavigation } from 'react-router-dom';
import { AppLayout } from '@/components/layout/app-layout';
import { FindButton } from '@/features/find/components/find-button';
import { NotificationsMenu } from '@/features/notifications/components/notifications-menu';

/** The shell around every protected screen; a thin bar shows while the next screen's code loads. */
export default function AppLayoutRoute() {
  const navigation = useNavigation();
  return (
    <AppLayout find={<FindButton />} notifications={<NotificationsMenu />}>
      {navigation.state === 'loading' ? (
        <Progress value={100} animated size={3} radius={0} pos="fixed" top={0} left={0} right={0} style={{ zIndex: 1000 }} aria-label="Loading page" />
      ) : null}
      <Outlet />
    </AppLayout>
  );
}
