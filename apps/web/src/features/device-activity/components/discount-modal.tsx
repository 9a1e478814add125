import { Alert, Button, Group, Modal, NumberInput, Stack, Text } from '@mantine/core';
import { IconDiscount, IconLockOpen } from '@tabler/icons-react';
import type { ItemDiscountReply } from '@kidogo/contracts';
import { useState } from 'react';
import { ErrorAlert } from '@/components/ui/error-alert';
import { LabelledFigure } from '@/components/ui/labelled-figure';
import { formatMoney } from '@/components/ui/money';
import { ReasonField, useReason } from '@/components/ui/reason-field';
import { TokenText } from '@/components/ui/token-text';
import { apiFieldErrors } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import { labelledFieldErrors, refusalBeside } from '@/lib/validation';
import { useGiveDiscount } from '../api/give-discount';

export const DISCOUNT_FAILED = 'Failed to give the discount';
export const DISCOUNT_REASON_MISSING = 'Say why this discount is given, in at least 3 characters';
export const PAYS_OFF_TEXT = 'This pays the device off: it unlocks for good, with a code to enter on it.';

/** The form's fields by the API's names for them (a 400 names the field so), with their labels. */
const LABELS = { amount: 'Amount', reason: 'Reason' } as const;

const isBlank = (amount: number | string) => String(amount).trim() === '';
/** Whole cents, so 0.1 + 0.2 never decides whether an amount fits in what is left. */
const cents = (amount: number | string) => Math.round(Number(amount) * 100);
const twoDecimals = (n: number) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6;

/**
 * What the API would refuse in the amount, before asking it: more than 0, at
 * most 2 decimals, and not more than what is left to pay. null when it is fine.
 */
export function discountAmountError(amount: number | string, remaining: string, currency: string): string | null {
  if (isBlank(amount)) return 'Amount is required';
  const n = Number(amount);
  if (!Number.isFinite(n)) return 'Amount must be a number';
  if (!twoDecimals(n)) return 'Amount must have at most 2 decimals';
  if (cents(n) <= 0) return 'Amount must be more than 0';
  if (cents(n) > cents(remaining)) return `Amount must be at most ${formatMoney(remaining, currency)}, what is left to pay`;
  return null;
}

/**
 * Give Discount (owners and admins): an amount off what the customer has left
 * to pay on the device, with why. A discount of all that is left pays the
 * device off: the unlock code stays on screen, as it is what the field agent
 * enters on the device. Any other discount closes with a notification.
 */
export function DiscountModal({
  serialNumber,
  customerName,
  remaining,
  currency,
  opened,
  onClose,
}: {
  serialNumber: string;
  customerName: string | null;
  /** What is left to pay on the device; null when there is nothing to take a discount off. */
  remaining: string | null;
  /** The currency of the device's plan. */
  currency: string;
  opened: boolean;
  onClose: () => void;
}) {
  const discount = useGiveDiscount();
  const close = () => {
    if (discount.isPending) return;
    discount.reset();
    onClose();
  };
  const done = () => {
    discount.reset();
    onClose();
  };
  const paidOff = discount.data?.unlock_token ? discount.data : null;
  return (
    <Modal opened={opened} onClose={close} title={paidOff ? 'Device Paid Off' : 'Give Discount'} size="md" centered closeOnClickOutside={!discount.isPending}>
      {paidOff ? (
        <PaidOff reply={paidOff} customerName={customerName} onClose={close} />
      ) : opened && remaining !== null ? (
        <DiscountForm
          serialNumber={serialNumber}
          customerName={customerName}
          remaining={remaining}
          currency={currency}
          discount={discount}
          onCancel={close}
          onDone={done}
        />
      ) : null}
    </Modal>
  );
}

/** The shares of what is left the form offers to fill in (All of it pays the device off). */
const QUICK_SHARES = [0.1, 0.2, 0.25, 1] as const;

function DiscountForm({
  serialNumber,
  customerName,
  remaining,
  currency,
  discount,
  onCancel,
  onDone,
}: {
  serialNumber: string;
  customerName: string | null;
  remaining: string;
  currency: string;
  discount: ReturnType<typeof useGiveDiscount>;
  onCancel: () => void;
  onDone: () => void;
}) {
  const [amount, setAmount] = useState<number | string>('');
  const [amountError, setAmountError] = useState<string | null>(null);
  const reason = useReason(DISCOUNT_REASON_MISSING);
  // The API's word on the reason (a 400 naming it) until it is typed again.
  const [refusedReason, setRefusedReason] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const fits = discountAmountError(amount, remaining, currency) === null;
  const leftAfter = fits ? (cents(remaining) - cents(amount)) / 100 : null;
  const paysOff = leftAfter === 0;

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (discount.isPending) return;
    setFailure(null);
    setRefusedReason(null);
    const problem = discountAmountError(amount, remaining, currency);
    setAmountError(problem);
    const text = reason.take();
    if (problem !== null || text === null) return;
    discount.mutate(
      { item_serial_number: serialNumber, amount: Number(amount).toFixed(2), reason: text },
      {
        onSuccess: (reply) => {
          // A device paid off: its unlock code stays on screen.
          if (reply.unlock_token) return;
          toast.success(reply.message);
          onDone();
        },
        onError: (error) => {
          // A 400 names its fields: each message goes under its input; anything else (a 403, a 409, a field the form
          // does not have) in the red box, as the API words it.
          const fields = apiFieldErrors(error);
          if (fields.amount) setAmountError(`${LABELS.amount} ${fields.amount}`);
          if (fields.reason) setRefusedReason(`${LABELS.reason} ${fields.reason}`);
          setFailure(refusalBeside(error, fields, labelledFieldErrors(fields, LABELS), DISCOUNT_FAILED));
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Give Discount">
      <Stack gap="md">
        <Text size="sm">
          Take an amount off what {customerName ?? 'the customer'} has left to pay on {serialNumber}: for paying off early, goodwill or a price
          corrected. Their balance and repayment standing follow at once.
        </Text>
        {failure ? <ErrorAlert title={DISCOUNT_FAILED} message={failure} /> : null}
        <NumberInput
          label={LABELS.amount}
          description={`At most ${formatMoney(remaining, currency)}, what is left to pay`}
          withAsterisk
          min={0}
          decimalScale={2}
          allowNegative={false}
          thousandSeparator=","
          clampBehavior="none"
          data-autofocus
          leftSection={
            <Text span size="xs" c="dimmed" fw={600}>
              {currency}
            </Text>
          }
          leftSectionWidth={48}
          value={amount}
          onChange={(value) => {
            setAmount(value);
            setAmountError(null);
            setFailure(null);
          }}
          error={amountError}
          disabled={discount.isPending}
        />
        {/* An early-payoff offer is usually a share of what is left: each sets the amount, rounded down to the cent. */}
        <Group gap={6} role="group" aria-label="Quick amounts">
          {QUICK_SHARES.map((share) => (
            <Button
              key={share}
              size="compact-xs"
              variant="light"
              disabled={discount.isPending}
              onClick={() => {
                setAmount(Math.floor(cents(remaining) * share + 1e-6) / 100);
                setAmountError(null);
                setFailure(null);
              }}
            >
              {share === 1 ? 'All of it' : `${Math.round(share * 100)}% of it`}
            </Button>
          ))}
        </Group>
        <ReasonField
          placeholder="e.g. Paying off early this month"
          disabled={discount.isPending}
          {...reason.field}
          onChange={(e) => {
            setRefusedReason(null);
            setFailure(null);
            reason.field.onChange(e);
          }}
          error={refusedReason ?? reason.field.error}
        />
        {leftAfter !== null ? (
          <Text size="sm" fw={500} aria-live="polite">
            Left to pay after: {formatMoney(leftAfter, currency)}
          </Text>
        ) : null}
        {paysOff ? (
          <Alert color="green" variant="light" icon={<IconLockOpen size={18} />}>
            {PAYS_OFF_TEXT}
          </Alert>
        ) : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={discount.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={discount.isPending} leftSection={<IconDiscount size={16} />}>
            Give Discount
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The discount paid the device off: the code that unlocks it for good, to enter on it. */
function PaidOff({ reply, customerName, onClose }: { reply: ItemDiscountReply; customerName: string | null; onClose: () => void }) {
  const { discount, unlock_token: unlock } = reply;
  const currency = discount.currency;
  return (
    <Stack gap="md">
      <Text size="sm">
        {formatMoney(discount.amount, currency)} taken off {discount.serial_number}: it is paid off, {discount.customer_name || customerName || 'the customer'}'s
        for good.
      </Text>
      {unlock ? (
        <Alert color="green" variant="light" title="Enter this code on the device to unlock it for good">
          <TokenText token={unlock.token} size="xl" fw={700} copyable />
          <Text size="xs" c="dimmed" mt={4}>
            Token count {unlock.token_count}. It is in the device's token history too.
          </Text>
        </Alert>
      ) : null}
      <Group gap="xl">
        <LabelledFigure label="Discount">{formatMoney(discount.amount, currency)}</LabelledFigure>
        <LabelledFigure label="Payoff Price">{formatMoney(reply.payoff, currency)}</LabelledFigure>
        <LabelledFigure label="Left to Pay">{formatMoney(reply.remaining, currency)}</LabelledFigure>
      </Group>
      <Group justify="flex-end">
        <Button onClick={onClose}>Done</Button>
      </Group>
    </Stack>
  );
}
