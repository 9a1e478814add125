import { Alert, Button, Group, Loader, Modal, Select, Stack, Text, Textarea } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconShieldX, IconUserShare } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { OVERRIDE_REASON_MAX, type DevicePlan } from '@kidogo/contracts';
import { useState } from 'react';
import { formatDate } from '@/components/ui/date-text';
import { ErrorAlert } from '@/components/ui/error-alert';
import { formatMoney } from '@/components/ui/money';
import { ReasonField, useReason } from '@/components/ui/reason-field';
import { ApiError, errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import { customerSearchQueryOptions } from '@/features/products/api/search-customers';
import type { CustomerSummary } from '@/features/products/api/types';
import { useTransferAccount } from '../api/transfer-account';

export const TRANSFER_TEXTS = {
  noCustomer: 'Choose the customer who takes the account over',
  sameCustomer: 'The account is already this customer’s: choose another',
  noReason: 'Say why the account passes to another customer',
  refusedTitle: 'The follow-on sales rule refuses this customer',
  noOverride: 'Say why this customer takes the account on anyway',
  failed: 'Failed to transfer the account',
} as const;

/** The device's account as its page read it: what passes to the new holder. */
export interface TransferredAccount {
  serialNumber: string;
  customerId: number | null;
  customerName: string | null;
  totalPaid: string | null;
  creditUntil: string | null;
  plan: DevicePlan | null;
}

/**
 * The API's 409 when the follow-on sales rule refuses the new holder: an owner or admin may send it again with
 * override_reason. The text, without the field it names and the hint meant for API callers.
 */
export function followOnRefusal(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.status !== 409 || !error.message.includes('override_reason')) return null;
  return error.message
    .replace(/^customer_id:\s*/, '')
    .replace(/\s*An owner or admin can give it anyway with a reason \(override_reason\)\.?\s*$/, '');
}

/**
 * Transfer Account: the customer who has a device on credit died, moved away
 * or sold it on, and another customer takes over its payments. The account
 * passes as it is (what was paid, the credit, the plan); no code is issued.
 */
export function TransferModal({
  account,
  currency,
  opened,
  onClose,
}: {
  account: TransferredAccount;
  currency: string | null;
  opened: boolean;
  onClose: () => void;
}) {
  const transfer = useTransferAccount();
  const close = () => {
    if (transfer.isPending) return;
    transfer.reset();
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title="Transfer Account" size="lg" centered>
      {opened ? (
        <TransferForm
          account={account}
          currency={currency}
          transfer={transfer}
          onCancel={close}
          onDone={() => {
            transfer.reset();
            onClose();
          }}
        />
      ) : null}
    </Modal>
  );
}

/** "0712 000 111 · ID 12345678 · Kisumu": what tells two customers of one name apart. */
const customerDetail = (c: CustomerSummary) => [c.phone_contact, c.id_number ? `ID ${c.id_number}` : null, c.county].filter(Boolean).join(' · ');

/**
 * The new holder: a customer searched on the server by name as the user types (as Assign Product does), never the
 * one who has the device now, nor one whose data was erased.
 */
function CustomerSelect({
  holderId,
  value,
  onChange,
  error,
  disabled,
}: {
  /** Who has the device now: never offered. */
  holderId: number | null;
  value: CustomerSummary | null;
  onChange: (customer: CustomerSummary | null) => void;
  error: string | null;
  disabled: boolean;
}) {
  const [search, setSearch] = useState('');
  const [typed] = useDebouncedValue(search.trim(), 300);
  const found = useQuery({ ...customerSearchQueryOptions(typed), placeholderData: keepPreviousData });
  const offered = (found.data ?? []).filter((c) => c.customer_id !== holderId && c.status !== 'erased');
  // The chosen customer stays an option whatever is searched next.
  const customers = value && !offered.some((c) => c.customer_id === value.customer_id) ? [value, ...offered] : offered;
  const byId = new Map(customers.map((c) => [String(c.customer_id), c]));
  return (
    <Select
      label="New holder"
      placeholder="Search customers by name"
      description={value ? customerDetail(value) || undefined : 'The customer who pays on from now'}
      withAsterisk
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      // The server has searched already: every customer it found is offered.
      filter={({ options }) => options}
      data={customers.map((c) => ({ value: String(c.customer_id), label: c.customer_name }))}
      renderOption={({ option }) => {
        const customer = byId.get(option.value);
        const detail = customer ? customerDetail(customer) : '';
        return (
          <Stack gap={0}>
            <Text size="sm" fw={600}>
              {option.label}
            </Text>
            {detail ? (
              <Text size="xs" c="dimmed">
                {detail}
              </Text>
            ) : null}
          </Stack>
        );
      }}
      value={value ? String(value.customer_id) : null}
      onChange={(id) => onChange(id ? (byId.get(id) ?? null) : null)}
      nothingFoundMessage={
        found.isError
          ? errorMessage(found.error, 'Failed to search customers')
          : found.isFetching || search.trim() !== typed
            ? 'Searching...'
            : 'No other customer matches'
      }
      rightSection={found.isFetching ? <Loader size="xs" /> : undefined}
      error={error}
      disabled={disabled}
    />
  );
}

/**
 * "Amina's account on SHS-0001 passes to the customer you choose, as it is: KES 4,500.00 paid, its plan Daily 50 and
 * credit until 12 Dec 2026, 10:00." The date goes last: its own comma would split the list.
 */
function accountSentence(account: TransferredAccount, currency: string | null): string {
  const holder = account.customerName ? `${account.customerName}'s` : "The customer's";
  const paid = `${formatMoney(account.totalPaid ?? '0', currency)} paid`;
  const plan = account.plan ? `, its plan ${account.plan.template_name}` : '';
  const credit = account.creditUntil ? `credit until ${formatDate(account.creditUntil, true)}` : 'no credit left';
  return `${holder} account on ${account.serialNumber} passes to the customer you choose, as it is: ${paid}${plan} and ${credit}. No code is needed: the device runs as before.`;
}

function TransferForm({
  account,
  currency,
  transfer,
  onCancel,
  onDone,
}: {
  account: TransferredAccount;
  currency: string | null;
  transfer: ReturnType<typeof useTransferAccount>;
  onCancel: () => void;
  onDone: () => void;
}) {
  const reason = useReason(TRANSFER_TEXTS.noReason);
  const [customer, setChosenCustomer] = useState<CustomerSummary | null>(null);
  const [customerError, setCustomerError] = useState<string | null>(null);
  /** The rule's refusal of the chosen customer, once the API gave it: an owner's or admin's reason lets it through. */
  const [refusal, setRefusal] = useState<string | null>(null);
  const [override, setOverride] = useState('');
  const [overrideError, setOverrideError] = useState<string | null>(null);
  const setCustomer = (c: CustomerSummary | null) => {
    setChosenCustomer(c);
    setCustomerError(null);
    // The refusal and the reason to override it were the other customer's.
    setRefusal(null);
    setOverride('');
    setOverrideError(null);
    transfer.reset();
  };

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const text = reason.take();
    const sameHolder = customer !== null && customer.customer_id === account.customerId;
    setCustomerError(!customer ? TRANSFER_TEXTS.noCustomer : sameHolder ? TRANSFER_TEXTS.sameCustomer : null);
    const overrideText = override.trim();
    setOverrideError(refusal && !overrideText ? TRANSFER_TEXTS.noOverride : null);
    if (text === null || !customer || sameHolder || (refusal && !overrideText)) return;
    transfer.mutate(
      {
        item_serial_number: account.serialNumber,
        customer_id: customer.customer_id,
        reason: text,
        ...(refusal ? { override_reason: overrideText } : {}),
      },
      {
        onSuccess: (reply) => {
          toast.success(reply.message);
          onDone();
        },
        onError: (error) => {
          const refused = followOnRefusal(error);
          if (refused) setRefusal(refused);
        },
      },
    );
  };

  // The rule's refusal shows with its override field; any other error above the form.
  const otherError = transfer.isError && followOnRefusal(transfer.error) === null;
  return (
    <form onSubmit={submit} noValidate aria-label="Transfer Account">
      <Stack gap="md">
        <Text size="sm">{accountSentence(account, currency)}</Text>
        {otherError ? <ErrorAlert title={TRANSFER_TEXTS.failed} message={errorMessage(transfer.error, TRANSFER_TEXTS.failed)} /> : null}
        <CustomerSelect holderId={account.customerId} value={customer} onChange={setCustomer} error={customerError} disabled={transfer.isPending} />
        {refusal ? (
          <Alert color="red" variant="light" icon={<IconShieldX size={20} />} title={TRANSFER_TEXTS.refusedTitle} role="alert">
            <Stack gap="sm">
              <Text size="sm">{refusal}</Text>
              <Textarea
                label="Override reason"
                description="Why this customer takes the account on anyway: kept in the Activity Log with who transferred it."
                placeholder="e.g. The family paid the arrears in cash at the shop"
                value={override}
                onChange={(e) => {
                  setOverride(e.currentTarget.value);
                  if (e.currentTarget.value.trim()) setOverrideError(null);
                }}
                maxLength={OVERRIDE_REASON_MAX}
                autosize
                minRows={2}
                withAsterisk
                error={overrideError}
                disabled={transfer.isPending}
              />
            </Stack>
          </Alert>
        ) : null}
        <ReasonField placeholder="e.g. The customer died; his son pays on" disabled={transfer.isPending} {...reason.field} />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={transfer.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={transfer.isPending} leftSection={<IconUserShare size={16} />}>
            Transfer Account
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
