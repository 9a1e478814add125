import { Badge } from '@mantine/core';
import { CAMPAIGN_STATUS_LABELS } from '@kidogo/contracts';
import type { CampaignStatus } from '../api/types';

export const STATUS_COLORS: Record<CampaignStatus, string> = {
  scheduled: 'blue',
  sending: 'yellow',
  sent: 'green',
  cancelled: 'gray',
};

export function CampaignStatusBadge({ status }: { status: CampaignStatus }) {
  return (
    <Badge miw="max-content" color={STATUS_COLORS[status]} variant="light" radius="sm">
      {CAMPAIGN_STATUS_LABELS[status]}
    </Badge>
  );
}
