import { Alert, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconCircleCheck, IconInfoCircle } from '@tabler/icons-react';
import { LabelledFigure } from '@/components/ui/labelled-figure';
import { formatMoney } from '@/components/ui/money';
import { TokenText, tokenTypeLabel } from '@/components/ui/token-text';
import type { IssuedToken, ManualPaymentInput, PaymentOutcome } from '../api/types';
import { METHOD_LABELS } from './record-payment-form';

/** Why a payment bought no token (the payment rules' outcomes), in the words staff repeat to the customer. */
export const NO_TOKEN: Partial<Record<NonNullable<PaymentOutcome['reason']>, string>> = {
  no_template: 'The device has no payment plan: the money is kept as credit and no token is issued.',
  below_activation: 'Not enough yet to activate the device: the money is kept as credit until the deposit and activation price are paid.',
  below_daily_price: "Less than one day's price: the money is carried as credit to the next payment.",
};

/** The tokens the payment bought; an older reply may carry only the first one's code and the total days. */
function tokensOf(outcome: PaymentOutcome): Partial<IssuedToken>[] {
  if (outcome.tokens?.length) return outcome.tokens;
  return outcome.token ? [{ token: outcome.token, days: outcome.days }] : [];
}

function TokenCard({ token, title }: { token: Partial<IssuedToken>; title: string }) {
  return (
    <Paper withBorder p="md" radius="md" ta="center" bg="var(--mantine-color-default-hover)" role="group" aria-label={title}>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase" mb={4}>
        {title}
      </Text>
      <Group justify="center">
        <TokenText token={token.token} copyable fz={{ base: 22, xs: 28 }} fw={700} data-testid="payment-token" />
      </Group>
      <Text size="sm" c="dimmed" mt={4}>
        {[token.token_type ? tokenTypeLabel(token.token_type) : null, token.days !== undefined ? `${token.days} ${token.days === 1 ? 'day' : 'days'}` : null]
          .filter(Boolean)
          .join(' · ')}
      </Text>
    </Paper>
  );
}

/** What the payment did: tokens to give the customer, the credit carried and what is left to pay. */
export function PaymentResult({ outcome, input, currency }: { outcome: PaymentOutcome; input: ManualPaymentInput; currency: string | null }) {
  const tokens = tokensOf(outcome);
  const amount = formatMoney(outcome.amount ?? input.amount, currency);
  const serial = outcome.serial_number ?? input.serial_number;
  const duplicate = outcome.status === 'duplicate';
  return (
    <Stack gap="md" aria-label="Payment result">
      {duplicate ? (
        <Alert color="yellow" icon={<IconInfoCircle size={18} />} title="Already recorded">
          Reference {outcome.transaction_code ?? input.reference} was recorded before: this is that payment's result. Nothing was recorded
          again.
        </Alert>
      ) : (
        <Alert color="green" icon={<IconCircleCheck size={18} />} title="Payment recorded">
          {amount} ({METHOD_LABELS[input.payment_method]}) applied to {serial}
          {outcome.payment_id ? `, payment #${outcome.payment_id}` : ''}.
        </Alert>
      )}
      {tokens.length ? (
        <Stack gap="sm">
          {tokens.map((t, i) => (
            <TokenCard key={`${t.token}-${i}`} token={t} title={tokens.length > 1 ? `Token ${i + 1} of ${tokens.length}` : 'Token'} />
          ))}
          <Text size="xs" c="dimmed" ta="center">
            {outcome.reason === 'paid_off' ? 'Paid off: the unlock token opens the device for good. ' : ''}
            {tokens.length > 1 ? 'Enter the tokens on the device in this order.' : 'Give this token to the customer to enter on the device.'}
          </Text>
        </Stack>
      ) : (
        <Alert color="blue" variant="light" icon={<IconInfoCircle size={18} />} title="No token issued">
          {(outcome.reason && NO_TOKEN[outcome.reason]) ?? 'This payment did not buy a token.'}
        </Alert>
      )}
      <SimpleGrid cols={{ base: 2, xs: 3 }} spacing="md">
        <LabelledFigure label="Days">{outcome.days ?? tokens.reduce((n, t) => n + (t.days ?? 0), 0)}</LabelledFigure>
        <LabelledFigure label="Credit">{formatMoney(outcome.credit, currency)}</LabelledFigure>
        <LabelledFigure label="Remaining Balance">
          {outcome.remaining_balance === null ? 'No payoff price' : formatMoney(outcome.remaining_balance, currency)}
        </LabelledFigure>
      </SimpleGrid>
      {outcome.reply_message ? (
        <Stack gap={4}>
          <Text size="xs" c="dimmed" fw={600} tt="uppercase" lts={0.3}>
            SMS to the customer
          </Text>
          <Paper withBorder p="sm" radius="md">
            <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {outcome.reply_message}
            </Text>
          </Paper>
        </Stack>
      ) : null}
    </Stack>
  );
}
