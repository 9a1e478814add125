import {
  ActionIcon,
  Alert,
  Anchor,
  Button,
  Center,
  Group,
  Input,
  List,
  Loader,
  Modal,
  NumberInput,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  Tooltip,
  type ButtonProps,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertTriangle, IconDeviceMobileDollar } from '@tabler/icons-react';
import {
  mpesaPhone,
  ZPaymentRequestInputSchema,
  type PaymentRequestInput,
  type PaymentRequestProvider,
  type PaymentRequestProviderInfo,
} from '@kidogo/contracts';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { ErrorAlert } from '@/components/ui/error-alert';
import { formatMoney } from '@/components/ui/money';
import { paths } from '@/config/paths';
import { useCustomer } from '@/features/customers/api/get-customer';
import { apiFieldErrors, errorMessage } from '@/lib/api-client';
import { managesOrganization, useSession } from '@/lib/session';
import { labelledFieldErrors, refusalBeside, schemaErrors } from '@/lib/validation';
import { usePaymentRequestProviders, usePrefetchPaymentRequestProviders } from '../api/get-payment-request-providers';
import { useSendPaymentRequest } from '../api/send-payment-request';
import { PaymentRequestProgress } from './payment-request-progress';

export const SEND_FAILED = 'Payment request not sent';
export const PROVIDERS_LOAD_FAILED = 'Failed to load the ways to ask for payment';
export const NONE_READY = 'Payment requests cannot be sent yet';

/** The device whose customer is asked to pay, and what the page knows that helps choose the amount. */
export interface AskToPayTarget {
  serialNumber: string;
  customerId: number;
  customerName: string;
  /** The customer's phone; left out when the page does not know it (the modal reads the customer then). */
  phone?: string | null;
  /** The plan's price of a day, and what is left to pay, in `currency`: hints for the amount. */
  dailyPrice?: string | null;
  remaining?: string | null;
  currency?: string | null;
}

/** The form's labels: client-side and server messages read "Amount must be at least 1". */
const LABELS = { amount: 'Amount', phone_number: 'Phone Number' };
const PAY_WITH = 'Pay with';

interface Values {
  provider: PaymentRequestProvider;
  phone_number: string;
  amount: number | string;
}

/** How an MTN market writes a mobile number, by its money: the placeholder of an empty phone. */
const MTN_PHONE_EXAMPLES: Record<string, string> = { UGX: '0772 123 456', RWF: '0788 123 456', ZMW: '0961 234 567', GHS: '024 123 4567' };
/** Likewise an Airtel number of an Airtel market, by its money (none for XAF: three markets share it). */
const AIRTEL_PHONE_EXAMPLES: Record<string, string> = {
  KES: '0733 123 456',
  UGX: '0752 123 456',
  TZS: '0784 123 456',
  RWF: '0732 123 456',
  ZMW: '0977 123 456',
  MWK: '0991 234 567',
  CDF: '0991 234 567',
  MGA: '033 12 345 67',
  NGN: '0802 123 4567',
};

const Account = ({ serialNumber }: { serialNumber: string }) => (
  <Text span ff="monospace" fw={600}>
    {serialNumber}
  </Text>
);

/** What the form says of each provider: what the customer sees, whose phone, and how the amount is written. */
const PROVIDER_FORM: Record<
  PaymentRequestProvider,
  { intro: (t: AskToPayTarget) => ReactNode; phoneOnFile: string; placeholder: (currency: string) => string; amountNote: (p: PaymentRequestProviderInfo) => string }
> = {
  mpesa_express: {
    intro: (t) => (
      <>
        M-Pesa asks <b>{t.customerName}</b> to pay to your paybill, account <Account serialNumber={t.serialNumber} />. Their phone shows the prompt;
        they confirm with their PIN.
      </>
    ),
    phoneOnFile: "The customer's phone: M-Pesa prompts this number",
    placeholder: () => '07XX XXX XXX',
    amountNote: () => 'Whole shillings.',
  },
  mtn_momo: {
    intro: (t) => (
      <>
        MTN MoMo asks <b>{t.customerName}</b> to approve a payment to you, reference <Account serialNumber={t.serialNumber} />. Their phone shows the
        request; they approve it with their MoMo PIN.
      </>
    ),
    phoneOnFile: "The customer's phone: MTN MoMo asks this number",
    placeholder: (currency) => MTN_PHONE_EXAMPLES[currency] ?? '',
    amountNote: (p) => (p.decimals ? 'Up to 2 decimals.' : `Whole ${p.currency}, no cents.`),
  },
  airtel_money: {
    intro: (t) => (
      <>
        Airtel Money asks <b>{t.customerName}</b> to approve a payment to you, reference <Account serialNumber={t.serialNumber} />. Their phone
        shows the request; they approve it with their Airtel Money PIN.
      </>
    ),
    phoneOnFile: "The customer's phone: Airtel Money asks this number",
    placeholder: (currency) => AIRTEL_PHONE_EXAMPLES[currency] ?? '',
    amountNote: (p) => (p.decimals ? 'Up to 2 decimals.' : `Whole ${p.currency}, no cents.`),
  },
};

/**
 * The request body. M-Pesa: the phone as M-Pesa takes it (2547…). MTN MoMo and Airtel Money: the phone as typed (the
 * API reads it with the organization's phone country). Left out when empty so the API takes the customer's.
 */
export function toPaymentRequestInput(serialNumber: string, v: Values): PaymentRequestInput {
  const phone = v.phone_number.trim();
  const asSent = v.provider === 'mpesa_express' ? (mpesaPhone(phone) ?? phone) : phone;
  return {
    serial_number: serialNumber,
    provider: v.provider,
    amount: typeof v.amount === 'number' ? v.amount : Number(v.amount),
    ...(phone ? { phone_number: asSent } : {}),
  };
}

/** The contract's rules, then the chosen provider's own (whole money where it has no cents, its most at once). */
function validate(serialNumber: string, v: Values, provider: PaymentRequestProviderInfo) {
  const blankAmount = String(v.amount).trim() === '';
  const errors = schemaErrors(ZPaymentRequestInputSchema, { ...toPaymentRequestInput(serialNumber, v), amount: blankAmount ? undefined : v.amount }, LABELS);
  if (blankAmount) errors.amount = 'Amount is required';
  else if (!errors.amount) {
    const amount = Number(v.amount);
    if (!provider.decimals && !Number.isInteger(amount)) errors.amount = `Amount must be whole ${provider.currency} (it has no cents)`;
    else if (amount > provider.max_amount) errors.amount = `Amount must be at most ${provider.max_amount}`;
  }
  return errors;
}

/** Why a payment in another money than the device's plan will not buy days by itself (README "Payment rules"). */
export function otherCurrency(planCurrency: string, provider: PaymentRequestProviderInfo): string {
  return (
    `This device's plan is in ${planCurrency}, and ${provider.label} asks in ${provider.currency}: ` +
    'what the customer pays will wait in Held Payments for staff to match it.'
  );
}

/** "KES 50.00 a day · KES 10,500.00 left to pay", from what the page knows; null when it knows neither. */
function amountHint(t: AskToPayTarget, fallbackCurrency: string): string | null {
  const currency = t.currency ?? fallbackCurrency;
  const parts = [
    t.dailyPrice ? `${formatMoney(t.dailyPrice, currency)} a day` : null,
    t.remaining !== null && t.remaining !== undefined ? `${formatMoney(t.remaining, currency)} left to pay` : null,
  ].filter(Boolean);
  return parts.length ? parts.join(' · ') : null;
}

function AskToPayForm({
  target,
  providers,
  initial,
  send,
  onSent,
  onCancel,
}: {
  target: AskToPayTarget;
  /** The providers ready to send with, at least one; the first is chosen unless `initial` says otherwise. */
  providers: PaymentRequestProviderInfo[];
  initial: Values;
  send: ReturnType<typeof useSendPaymentRequest>;
  onSent: (requestId: number, values: Values) => void;
  onCancel: () => void;
}) {
  const [failure, setFailure] = useState<string | null>(null);
  const chosen = (v: Values) => providers.find((p) => p.provider === v.provider) ?? providers[0]!;
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: initial,
    validate: (v) => validate(target.serialNumber, v, chosen(v)),
    onValuesChange: () => setFailure(null),
  });
  const provider = chosen(form.values);
  const words = PROVIDER_FORM[provider.provider];
  const hint = amountHint(target, provider.currency);

  const submit = form.onSubmit((values) => {
    if (send.isPending) return;
    setFailure(null);
    send.mutate(toPaymentRequestInput(target.serialNumber, values), {
      onSuccess: (reply) => onSent(reply.data.request_id, values),
      onError: (error) => {
        // A 400's fields go under their inputs; everything else (no customer, not set up, one still waiting,
        // the provider's refusal) in the red box, in the API's words.
        const fields = apiFieldErrors(error);
        const shown = labelledFieldErrors(fields, LABELS);
        form.setErrors(shown);
        setFailure(refusalBeside(error, fields, shown, SEND_FAILED));
      },
    });
  });

  return (
    <form onSubmit={submit} noValidate aria-label="Ask to Pay">
      <Stack gap="md">
        {providers.length > 1 ? (
          <Input.Wrapper label={PAY_WITH} labelElement="div">
            <SegmentedControl
              fullWidth
              aria-label={PAY_WITH}
              data={providers.map((p) => ({ value: p.provider, label: p.label }))}
              value={provider.provider}
              // On a phone the three names do not fit on one line: each wraps rather than being cut off.
              styles={{
                control: { display: 'flex' },
                label: { whiteSpace: 'normal', flex: 1, display: 'flex', alignItems: 'center', justifyContent: 'center' },
              }}
              onChange={(v) => {
                form.setFieldValue('provider', v as PaymentRequestProvider);
                // The amount's rules change with the provider: what was wrong under the other may be right now.
                form.clearErrors();
              }}
            />
          </Input.Wrapper>
        ) : null}
        <Text size="sm">{words.intro(target)}</Text>
        <TextInput
          label={LABELS.phone_number}
          description={initial.phone_number ? words.phoneOnFile : "Leave empty to use the customer's phone on file"}
          placeholder={words.placeholder(provider.currency)}
          inputMode="tel"
          autoComplete="off"
          {...form.getInputProps('phone_number')}
        />
        <NumberInput
          label={`${LABELS.amount} (${provider.currency})`}
          withAsterisk
          description={hint ? `${hint}. ${words.amountNote(provider)}` : words.amountNote(provider)}
          min={1}
          max={provider.max_amount}
          step={1}
          allowDecimal={provider.decimals}
          decimalScale={provider.decimals ? 2 : undefined}
          allowNegative={false}
          thousandSeparator=","
          clampBehavior="none"
          data-autofocus
          {...form.getInputProps('amount')}
        />
        {target.currency && target.currency !== provider.currency ? (
          <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} />} role="note" aria-label="Another currency">
            {otherCurrency(target.currency, provider)}
          </Alert>
        ) : null}
        {failure ? <ErrorAlert title={SEND_FAILED} message={failure} /> : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={send.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={send.isPending} leftSection={<IconDeviceMobileDollar size={16} />}>
            Send
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** No provider ready: why each is not, instead of a form that could not be sent. */
function NoneReady({ providers, onClose }: { providers: PaymentRequestProviderInfo[]; onClose: () => void }) {
  const { user } = useSession();
  return (
    <Stack gap="md">
      <Alert color="yellow" variant="light" title={NONE_READY} icon={<IconAlertTriangle size={18} />}>
        <Stack gap="xs">
          {providers.length ? (
            <List size="sm" spacing={4}>
              {providers.map((p) => (
                <List.Item key={p.provider}>
                  <b>{p.label}</b>: {p.problem ?? 'not ready'}
                </List.Item>
              ))}
            </List>
          ) : null}
          <Text size="sm">
            {managesOrganization(user) ? (
              <>
                Set one up in{' '}
                <Anchor component={Link} to={paths.app.settings.getHref()} size="sm">
                  Settings
                </Anchor>
                .
              </>
            ) : (
              'An owner or admin can set one up in Settings.'
            )}
          </Text>
        </Stack>
      </Alert>
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Close
        </Button>
      </Group>
    </Stack>
  );
}

/**
 * What the form needs before it shows: the providers ready to send with, and
 * the customer's phone (the page's, else read from the customer: a device's
 * page does not carry it). `again` is what was sent last time (Ask Again).
 */
function AskToPayStart({
  target,
  again,
  send,
  onSent,
  onCancel,
}: {
  target: AskToPayTarget;
  again: Values | null;
  send: ReturnType<typeof useSendPaymentRequest>;
  onSent: (requestId: number, values: Values) => void;
  onCancel: () => void;
}) {
  const providers = usePaymentRequestProviders();
  const known = target.phone !== undefined;
  const customer = useCustomer(known ? null : target.customerId);
  if (providers.isPending || (!known && customer.isPending)) {
    return (
      <Center py="lg" role="status" aria-label={providers.isPending ? 'Loading the ways to ask for payment' : "Loading the customer's phone"}>
        <Loader size="sm" />
      </Center>
    );
  }
  if (providers.isError) {
    return (
      <ErrorAlert
        title={PROVIDERS_LOAD_FAILED}
        message={errorMessage(providers.error, PROVIDERS_LOAD_FAILED)}
        onRetry={() => void providers.refetch()}
        retrying={providers.isFetching}
      />
    );
  }
  const ready = providers.data.filter((p) => p.ready);
  if (!ready.length) return <NoneReady providers={providers.data} onClose={onCancel} />;
  // Asked again with the same provider while it is still ready; otherwise the first one ready.
  const provider = ready.find((p) => p.provider === again?.provider)?.provider ?? ready[0]!.provider;
  // Not read: the field stays empty and the API prompts the phone on file.
  const phone = (known ? target.phone : customer.data?.phone_contact) ?? '';
  return (
    <AskToPayForm
      // A new form when what is offered changes (a provider set up or switched off meanwhile).
      key={`${target.serialNumber}-${again ? 'again' : 'new'}-${ready.map((p) => p.provider).join()}`}
      target={target}
      providers={ready}
      initial={again ? { ...again, provider } : { provider, phone_number: phone, amount: '' }}
      send={send}
      onSent={onSent}
      onCancel={onCancel}
    />
  );
}

/**
 * Ask to Pay: M-Pesa Express, MTN MoMo or Airtel Money (whichever is ready,
 * or the one chosen) asks the customer's phone for the amount, with the
 * device's serial number as the account or reference; the modal then follows
 * the request until the customer pays, declines, or it expires.
 */
export function AskToPayModal({ target, onClose }: { target: AskToPayTarget | null; onClose: () => void }) {
  usePrefetchPaymentRequestProviders();
  const send = useSendPaymentRequest();
  const [sent, setSent] = useState<{ id: number; values: Values } | null>(null);
  // Ask Again opens the form with what was sent last time.
  const [again, setAgain] = useState<Values | null>(null);
  const close = () => {
    if (send.isPending) return;
    send.reset();
    setSent(null);
    setAgain(null);
    onClose();
  };
  return (
    <Modal opened={target !== null} onClose={close} title="Ask to Pay" size="md" centered closeOnClickOutside={!send.isPending && sent === null}>
      {target === null ? null : sent ? (
        <PaymentRequestProgress
          requestId={sent.id}
          onAskAgain={() => {
            send.reset();
            setAgain(sent.values);
            setSent(null);
          }}
          onClose={close}
        />
      ) : (
        <AskToPayStart target={target} again={again} send={send} onSent={(id, values) => setSent({ id, values })} onCancel={close} />
      )}
    </Modal>
  );
}

/** The device page's "Ask to Pay" button and its modal. */
export function AskToPayButton({ target, ...buttonProps }: { target: AskToPayTarget } & ButtonProps) {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button variant="default" leftSection={<IconDeviceMobileDollar size={16} />} onClick={() => setOpened(true)} {...buttonProps}>
        Ask to Pay
      </Button>
      <AskToPayModal target={opened ? target : null} onClose={() => setOpened(false)} />
    </>
  );
}

/** A row's Ask to Pay button, named for its customer and device so a screen reader (and a test) tells the rows apart. */
export function AskToPayAction({ target, onAsk }: { target: AskToPayTarget; onAsk: (target: AskToPayTarget) => void }) {
  return (
    <Tooltip label="Ask to Pay" withArrow>
      <ActionIcon variant="light" color="green" aria-label={`Ask to Pay: ${target.customerName} · ${target.serialNumber}`} onClick={() => onAsk(target)}>
        <IconDeviceMobileDollar size={16} />
      </ActionIcon>
    </Tooltip>
  );
}
