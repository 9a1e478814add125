import { Alert, Group, Loader, Paper, Stack, Text, Textarea } from '@mantine/core';
import { IconShieldCheck, IconShieldX } from '@tabler/icons-react';
import { FOLLOW_ON_RULE_LABELS, OVERRIDE_REASON_MAX, type CreditCheck } from '@kidogo/contracts';
import { ErrorAlert } from '@/components/ui/error-alert';
import { errorMessage } from '@/lib/api-client';
import { useOrganizationCurrency } from '@/lib/organization-currency';
import { managesOrganization, useSession } from '@/lib/session';
import { RepaymentBadge, repaymentSentence } from '@/features/customer-payment-details/components/repayment-standing';
import { useCreditCheck } from '../api/get-credit-check';

export const CREDIT_CHECK_TEXTS = {
  failed: 'Failed to check the customer’s repayment',
  refusedTitle: 'The follow-on sales rule refuses this customer',
  staffOnly: 'Only an owner or admin can give this customer another device.',
  reasonLabel: 'Reason to give it anyway',
  reasonHelp: 'Kept in the Activity Log with who gave the device.',
} as const;

/**
 * What the form does with the check: `blocked` while it is loading, or while
 * it refuses the customer without a reason an owner or admin may give.
 */
export interface CreditDecision {
  blocked: boolean;
  /** The owner's or admin's reason, sent as override_reason when the rule refuses the customer. */
  overrideReason: string | undefined;
}

export function creditDecision(check: CreditCheck | undefined, manages: boolean, reason: string, failed = false): CreditDecision {
  // A check that could not be read does not stop the form: the server checks again and says why it refuses.
  if (!check) return { blocked: !failed, overrideReason: undefined };
  if (check.allowed) return { blocked: false, overrideReason: undefined };
  const r = reason.trim();
  return { blocked: !manages || r === '', overrideReason: manages && r ? r : undefined };
}

/** The check of a chosen customer, its query and the decision together, for a form that gives them a device. */
export function useCreditDecision(customerId: number | null, reason: string) {
  const { user } = useSession();
  const query = useCreditCheck(customerId);
  return { query, decision: creditDecision(query.data, managesOrganization(user), reason, query.isError) };
}

/**
 * Where the chosen customer stands before they are given a device on credit:
 * their repayment on the devices they hold, and, when the organization's
 * follow-on sales rule refuses them, why, with the reason an owner or admin
 * gives to go ahead anyway.
 */
export function CreditCheckPanel({
  query,
  reason,
  onReasonChange,
  disabled = false,
}: {
  query: ReturnType<typeof useCreditCheck>;
  reason: string;
  onReasonChange: (reason: string) => void;
  disabled?: boolean;
}) {
  const { user } = useSession();
  const currency = useOrganizationCurrency();
  if (query.isPending) {
    return (
      <Group gap="xs" role="status" aria-label="Checking the customer’s repayment">
        <Loader size="xs" />
        <Text size="sm" c="dimmed">
          Checking the customer’s repayment…
        </Text>
      </Group>
    );
  }
  if (query.isError) {
    return <ErrorAlert title={CREDIT_CHECK_TEXTS.failed} message={errorMessage(query.error, CREDIT_CHECK_TEXTS.failed)} onRetry={() => void query.refetch()} retrying={query.isFetching} />;
  }
  const check = query.data;
  const heading = (
    <Group gap="xs" wrap="wrap">
      <Text size="sm" fw={600}>
        {check.customer_name}
      </Text>
      <RepaymentBadge repayment={check.repayment} />
      <Text size="xs" c="dimmed">
        {check.devices === 0 ? 'holds no device' : `holds ${check.devices} device${check.devices === 1 ? '' : 's'}`}
        {check.repossessions > 0 ? ` · ${check.repossessions} repossessed before` : ''}
      </Text>
    </Group>
  );
  if (check.allowed) {
    return (
      <Paper withBorder p="sm" radius="md" role="group" aria-label="Credit check">
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <IconShieldCheck size={20} color="var(--mantine-color-teal-6)" aria-hidden style={{ flexShrink: 0, marginTop: 2 }} />
          <Stack gap={4}>
            {heading}
            <Text size="sm" c="dimmed">
              {check.devices === 0 ? 'A first device: there is no repayment to check yet.' : repaymentSentence(check.repayment, currency)}
            </Text>
            <Text size="xs" c="dimmed">
              Follow-on sales: {FOLLOW_ON_RULE_LABELS[check.rule]}
              {check.refuse_repossessed ? ', none to customers repossessed from' : ''}.
            </Text>
          </Stack>
        </Group>
      </Paper>
    );
  }
  const manages = managesOrganization(user);
  return (
    <Alert color="red" variant="light" icon={<IconShieldX size={20} />} title={CREDIT_CHECK_TEXTS.refusedTitle} role="alert">
      <Stack gap="sm">
        {heading}
        {check.reasons.map((r) => (
          <Text key={r} size="sm">
            {r}
          </Text>
        ))}
        {manages ? (
          <Textarea
            label={CREDIT_CHECK_TEXTS.reasonLabel}
            description={CREDIT_CHECK_TEXTS.reasonHelp}
            placeholder="Paid the arrears in cash at the shop"
            value={reason}
            onChange={(e) => onReasonChange(e.currentTarget.value)}
            maxLength={OVERRIDE_REASON_MAX}
            autosize
            minRows={2}
            required
            disabled={disabled}
          />
        ) : (
          <Text size="sm" fw={600}>
            {CREDIT_CHECK_TEXTS.staffOnly}
          </Text>
        )}
      </Stack>
    </Alert>
  );
}
