import { Button, Card, Group, Text, ThemeIcon, Title } from '@mantine/core';
import { IconHistory, IconRefresh } from '@tabler/icons-react';
import { useState } from 'react';
import { PageHeader } from '@/components/layout/page-header';
import { PageError } from '@/components/ui/page-error';
import { PaginationControl } from '@/components/ui/pagination-control';
import { errorMessage } from '@/lib/api-client';
import { managesOrganization, useSession } from '@/lib/session';
import { CAMPAIGNS_PAGE_SIZE, useSmsCampaigns } from '../api/get-sms-campaigns';
import { CampaignForm } from '../components/campaign-form';
import { CampaignsTable } from '../components/campaigns-table';

export const LOAD_FAILED = 'Failed to load the bulk SMS';

const SUBTITLE =
  'One text to a group of your customers, now or at a set time. Customers who texted STOP are passed over, and each phone number gets one text.';

/**
 * Bulk SMS (owners and admins): one text to a group of the organization's
 * customers (a shop moving, a new product, an offer to those who paid off),
 * now or at a set time, and the bulk texts sent and scheduled with what
 * became of their texts.
 */
export default function SmsCampaignsRoute() {
  const { user } = useSession();
  if (user && !managesOrganization(user)) {
    return (
      <>
        <PageHeader title="Bulk SMS" />
        <PageError title="Not available" message="Only owners and admins can send bulk SMS." />
      </>
    );
  }
  return <SmsCampaigns />;
}

function SmsCampaigns() {
  const [page, setPage] = useState(1);
  const campaigns = useSmsCampaigns({ page, limit: CAMPAIGNS_PAGE_SIZE });
  return (
    <>
      <PageHeader
        title="Bulk SMS"
        subtitle={SUBTITLE}
        actions={
          <Button variant="default" leftSection={<IconRefresh size={16} />} onClick={() => void campaigns.refetch()} loading={campaigns.isFetching && !campaigns.isPending}>
            Refresh
          </Button>
        }
      />
      <CampaignForm />
      <Card padding="lg" radius="md" role="region" aria-label="Sent and scheduled">
        <Group gap="sm" mb="md" wrap="nowrap">
          <ThemeIcon variant="light" size={40} radius="md" aria-hidden>
            <IconHistory size={22} />
          </ThemeIcon>
          <div>
            <Title order={4}>Sent and scheduled</Title>
            <Text size="sm" c="dimmed">
              Newest first, with what became of each text. A bulk SMS still to go out can be cancelled.
            </Text>
          </div>
        </Group>
        <CampaignsTable
          rows={campaigns.data?.data}
          loading={campaigns.isPending}
          error={campaigns.isError ? errorMessage(campaigns.error, LOAD_FAILED) : null}
          onRetry={() => void campaigns.refetch()}
        />
        <PaginationControl page={page} total={campaigns.data?.total ?? 0} pageSize={CAMPAIGNS_PAGE_SIZE} onPageChange={setPage} itemLabel="bulk SMS" />
      </Card>
    </>
  );
}
