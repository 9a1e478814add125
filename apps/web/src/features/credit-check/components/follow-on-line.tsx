import { Group, Stack, Text } from '@mantine/core';
import { IconShieldCheck, IconShieldX } from '@tabler/icons-react';
import { FOLLOW_ON_RULE_LABELS } from '@kidogo/contracts';
import { useCreditCheck } from '../api/get-credit-check';

/**
 * On the customer's page, under their repayment standing: whether the
 * organization's follow-on sales rule lets them have another device on credit,
 * and why not. Nothing while it loads or when it cannot be read (the page's
 * own figures stand without it).
 */
export function FollowOnLine({ customerId }: { customerId: number }) {
  const { data: check } = useCreditCheck(customerId);
  if (!check || typeof check.allowed !== 'boolean') return null;
  const rule = `${FOLLOW_ON_RULE_LABELS[check.rule]}${check.refuse_repossessed ? ', none to customers repossessed from' : ''}`;
  return (
    <Stack gap={4} mt="sm" role="group" aria-label="Another device on credit">
      <Group gap={6} wrap="nowrap" align="flex-start">
        {check.allowed ? (
          <IconShieldCheck size={18} color="var(--mantine-color-teal-6)" aria-hidden style={{ flexShrink: 0, marginTop: 1 }} />
        ) : (
          <IconShieldX size={18} color="var(--mantine-color-red-6)" aria-hidden style={{ flexShrink: 0, marginTop: 1 }} />
        )}
        <Text size="sm" fw={600}>
          {check.allowed ? 'Can be given another device on credit' : 'The follow-on sales rule refuses another device'}
        </Text>
      </Group>
      {check.reasons.map((r) => (
        <Text key={r} size="sm" c="dimmed">
          {r}
        </Text>
      ))}
      <Text size="xs" c="dimmed">
        Follow-on sales: {rule}.{check.allowed ? '' : ' An owner or admin can give it anyway with a reason.'}
      </Text>
    </Stack>
  );
}
