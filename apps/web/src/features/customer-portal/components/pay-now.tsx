import {
  ActionIcon,
  Alert,
  Button,
  Center,
  CopyButton,
  Group,
  Input,
  Loader,
  Modal,
  NumberInput,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconCheck, IconCircleCheck, IconCircleX, IconCopy, IconDeviceMobileDollar, IconInfoCircle } from '@tabler/icons-react';
import type { PaymentRequestProvider, PortalDevice, PortalPayment, PortalPayWith, PortalView } from '@kidogo/contracts';
import { useState, type FormEvent } from 'react';
import { errorMessage } from '@/lib/api-client';
import { usePortalPayment } from '../api/get-portal-payment';
import { useSendPortalPayment } from '../api/send-portal-payment';
import { PAY_NOW_WORDS, type PayNowWords } from './pay-now-words';

/** How many days the quick choices buy, when the device's plan has a price of a day. */
const QUICK_DAYS = [1, 7, 30];

interface Values {
  provider: PaymentRequestProvider;
  amount: number | string;
}

/** "KES 350", "KES 7,500", "KES 12.50": cents only when there are some, as people say an amount. */
export function money(value: number | string, currency: string): string {
  const n = Number(value);
  const whole = Number.isInteger(n);
  return `${currency} ${n.toLocaleString('en-US', { minimumFractionDigits: whole ? 0 : 2, maximumFractionDigits: 2 })}`;
}

/**
 * The ways this device can be paid from the page: the page's (the ready providers that can prompt the phone on file)
 * in the money of the device's plan. Money in another one would not buy days: it would wait for staff to match it, and
 * the customer would get no code. None on a device paid off, or when no phone is on file.
 */
export function payableWith(device: PortalDevice, view: PortalView): PortalPayWith[] {
  if (device.state === 'paid_off' || view.phone_hint === null) return [];
  return view.pay_with.filter((p) => p.currency === device.currency);
}

/** Whether `amount` can be asked for with `p`: null when it can, else why not, in the page's words. */
function amountError(amount: number | string, p: PortalPayWith, w: PayNowWords): string | null {
  if (String(amount).trim() === '' || !Number.isFinite(Number(amount))) return w.required;
  const n = Number(amount);
  if (n < 1) return w.atLeast(money(1, p.currency));
  if (!p.decimals && !Number.isInteger(n)) return w.whole(p.currency);
  if (n > p.max_amount) return w.atMost(money(p.max_amount, p.currency));
  return null;
}

/**
 * 1, 7 and 30 days at the plan's price of a day, and all that is left to pay: each only when one request can ask for it,
 * and days only while they cost no more than what is left. Without cents, days are rounded up (they still buy the days).
 */
function quickChoices(device: PortalDevice, p: PortalPayWith, w: PayNowWords): { label: string; amount: number }[] {
  const fits = (n: number) => n >= 1 && n <= p.max_amount;
  const left = device.remaining === null ? null : Number(device.remaining);
  const daily = device.daily_price === null ? 0 : Number(device.daily_price);
  const out: { label: string; amount: number }[] = [];
  if (daily > 0) {
    for (const n of QUICK_DAYS) {
      const cost = p.decimals ? Math.round(daily * n * 100) / 100 : Math.ceil(daily * n);
      if (fits(cost) && (left === null || cost < left)) out.push({ label: w.days(n), amount: cost });
    }
  }
  if (left !== null && left > 0) {
    const all = p.decimals ? left : Math.ceil(left);
    if (fits(all)) out.push({ label: w.allLeft, amount: all });
  }
  return out;
}

function PayNowForm({
  device,
  providers,
  phone,
  initial,
  send,
  onSent,
  w,
}: {
  device: PortalDevice;
  providers: PortalPayWith[];
  phone: string;
  initial: Values;
  send: ReturnType<typeof useSendPortalPayment>;
  onSent: (requestId: number, values: Values) => void;
  w: PayNowWords;
}) {
  const [values, setValues] = useState<Values>(initial);
  const [invalid, setInvalid] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const provider = providers.find((p) => p.provider === values.provider) ?? providers[0]!;
  const choices = quickChoices(device, provider, w);
  const change = (next: Partial<Values>) => {
    setValues((v) => ({ ...v, ...next }));
    setInvalid(null);
    setFailure(null);
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (send.isPending) return;
    const error = amountError(values.amount, provider, w);
    setInvalid(error);
    if (error) return;
    setFailure(null);
    send.mutate(
      { serial_number: device.serial_number, provider: provider.provider, amount: Number(values.amount) },
      {
        onSuccess: (reply) => onSent(reply.data.request_id, values),
        // The API's own words (English): a wrong amount, a link that no longer works, one still waiting, too many.
        onError: (error) => setFailure(errorMessage(error, w.notSent)),
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate aria-label={w.payNow}>
      <Stack gap="md">
        <Stack gap={0}>
          <Text fw={700}>{device.product_name}</Text>
          <Text size="sm" c="dimmed" ff="monospace">
            {device.serial_number}
          </Text>
        </Stack>
        {providers.length > 1 ? (
          <Input.Wrapper label={w.payWith} labelElement="div">
            <SegmentedControl
              fullWidth
              size="md"
              aria-label={w.payWith}
              data={providers.map((p) => ({ value: p.provider, label: p.label }))}
              value={provider.provider}
              // On a small phone the names do not fit on one line: each wraps rather than being cut off.
              styles={{ control: { display: 'flex' }, label: { whiteSpace: 'normal', flex: 1, display: 'flex', alignItems: 'center', justifyContent: 'center' } }}
              onChange={(v) => change({ provider: v as PaymentRequestProvider })}
            />
          </Input.Wrapper>
        ) : null}
        {choices.length ? (
          <SimpleGrid cols={2} spacing="xs" role="group" aria-label={w.choices}>
            {choices.map((c) => {
              const chosen = Number(values.amount) === c.amount && String(values.amount).trim() !== '';
              return (
                <Button
                  key={c.label}
                  variant={chosen ? 'filled' : 'default'}
                  h="auto"
                  py="xs"
                  px="xs"
                  aria-label={`${c.label}: ${money(c.amount, provider.currency)}`}
                  aria-pressed={chosen}
                  onClick={() => change({ amount: c.amount })}
                  styles={{ label: { whiteSpace: 'normal', flexDirection: 'column', lineHeight: 1.3 } }}
                >
                  <span>{c.label}</span>
                  <Text span size="sm" fw={400}>
                    {money(c.amount, provider.currency)}
                  </Text>
                </Button>
              );
            })}
          </SimpleGrid>
        ) : null}
        <NumberInput
          label={w.amount(provider.currency)}
          size="md"
          min={1}
          max={provider.max_amount}
          allowDecimal={provider.decimals}
          decimalScale={provider.decimals ? 2 : undefined}
          allowNegative={false}
          thousandSeparator=","
          clampBehavior="none"
          hideControls
          inputMode={provider.decimals ? 'decimal' : 'numeric'}
          value={values.amount}
          onChange={(amount) => change({ amount })}
          error={invalid}
        />
        <Text size="sm">{w.prompt(provider.label, phone)}</Text>
        {failure ? (
          <Alert color="red" variant="light" title={w.notSent} icon={<IconCircleX size={18} />} role="alert">
            {failure}
          </Alert>
        ) : null}
        <Button type="submit" size="lg" fullWidth loading={send.isPending} leftSection={<IconDeviceMobileDollar size={20} />}>
          {w.send}
        </Button>
      </Stack>
    </form>
  );
}

/** The code the payment bought, big enough to read off a small screen while typing it into the device. */
function NewCode({ token, w }: { token: string; w: PayNowWords }) {
  return (
    <Paper withBorder p="md" radius="md" ta="center" bg="var(--mantine-color-default-hover)" role="group" aria-label={w.newCode}>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase" mb={4}>
        {w.newCode}
      </Text>
      <Group justify="center" gap="xs" wrap="nowrap">
        <Text ff="monospace" fw={700} fz={30} style={{ letterSpacing: 1, whiteSpace: 'nowrap' }} data-testid="portal-payment-token">
          {token}
        </Text>
        <CopyButton value={token.replace(/\s+/g, '')} timeout={1500}>
          {({ copied, copy }) => (
            <Tooltip label={copied ? w.copied : w.copy} withArrow>
              <ActionIcon variant="subtle" color={copied ? 'teal' : 'gray'} size="lg" onClick={copy} aria-label={w.copy}>
                {copied ? <IconCheck size={20} /> : <IconCopy size={20} />}
              </ActionIcon>
            </Tooltip>
          )}
        </CopyButton>
      </Group>
      <Text size="sm" c="dimmed" mt={4}>
        {w.typeCode}
      </Text>
    </Paper>
  );
}

/** What became of a payment asked for: the phone's prompt, then paid (with the code), or why not. */
function PayNowProgress({
  payment,
  polling,
  phone,
  onTryAgain,
  onClose,
  w,
}: {
  payment: PortalPayment;
  polling: { failed: boolean };
  phone: string;
  onTryAgain: () => void;
  onClose: () => void;
  w: PayNowWords;
}) {
  const asked = money(payment.amount, payment.currency);
  if (payment.status === 'pending') {
    return (
      <Stack gap="sm" align="center" py="md" role="status" aria-live="polite">
        <Loader size="lg" />
        <Title order={4} ta="center">
          {w.checkPhone(phone)}
        </Title>
        <Text ta="center">{w.enterPin(asked)}</Text>
        <Text size="sm" c="dimmed" ta="center">
          {w.waitNote}
        </Text>
        {polling.failed ? (
          <Text size="xs" c="red" ta="center">
            {w.stillChecking}
          </Text>
        ) : null}
      </Stack>
    );
  }
  if (payment.status === 'paid') {
    return (
      <Stack gap="md">
        <Stack gap={4} align="center" role="status">
          <ThemeIcon color="green" size={48} radius="xl" variant="light">
            <IconCircleCheck size={32} />
          </ThemeIcon>
          <Title order={3} ta="center">
            {w.paid(payment.days)}
          </Title>
          <Text c="dimmed" ta="center">
            {asked} · {payment.label}
          </Text>
        </Stack>
        {payment.token ? (
          <NewCode token={payment.token} w={w} />
        ) : (
          <Text size="sm" ta="center">
            {w.codeBySms}
          </Text>
        )}
        <Button size="lg" fullWidth onClick={onClose}>
          {w.done}
        </Button>
      </Stack>
    );
  }
  const failed = payment.status === 'failed';
  const why = payment.status === 'cancelled' ? w.cancelled : failed ? w.failed : w.expired;
  return (
    <Stack gap="md">
      <Alert
        color={failed ? 'red' : 'gray'}
        variant="light"
        icon={failed ? <IconCircleX size={18} /> : <IconInfoCircle size={18} />}
        title={why}
        role={failed ? 'alert' : 'status'}
      >
        {asked} · {payment.label}. {payment.status === 'expired' ? w.paidAnyway : w.nothingPaid}
      </Alert>
      <Button size="lg" fullWidth onClick={onTryAgain}>
        {w.tryAgain}
      </Button>
      <Button size="md" variant="default" fullWidth onClick={onClose}>
        {w.close}
      </Button>
    </Stack>
  );
}

/**
 * Pay Now on one device of the customer's page: the customer picks an amount (a few days, or all that is left), their
 * own phone (the one on file) gets the provider's prompt, and the page follows the request until they have paid and
 * shows the code it bought. The request is followed even with the window closed, so the page still updates once paid.
 * Nothing shows on a device that cannot be paid from the page (see payableWith), but a window already open stays: the
 * payment of all that is left makes the device paid off, and its code must stay on screen.
 */
export function PayNow({ token, device, view }: { token: string; device: PortalDevice; view: PortalView }) {
  const w = PAY_NOW_WORDS[view.language];
  const providers = payableWith(device, view);
  const phone = view.phone_hint ?? '';
  const send = useSendPortalPayment(token);
  const [opened, setOpened] = useState(false);
  const [sent, setSent] = useState<{ id: number; values: Values } | null>(null);
  // Try again opens the form with what was sent last time.
  const [again, setAgain] = useState<Values | null>(null);
  const followed = usePortalPayment(token, sent?.id ?? null);
  const payment = followed.data?.data;

  if (!providers.length && !opened) return null;
  const close = () => {
    if (send.isPending) return;
    setOpened(false);
    // Closed while the phone shows the prompt: still followed, and shown again if the customer opens it again.
    if (payment?.status === 'pending') return;
    send.reset();
    setSent(null);
    setAgain(null);
  };
  // Asked again with the same provider while the page still offers it; otherwise the first.
  const provider = providers.find((p) => p.provider === again?.provider)?.provider ?? providers[0]?.provider;

  return (
    <>
      {providers.length ? (
        <Button mt="md" size="md" fullWidth leftSection={<IconDeviceMobileDollar size={20} />} onClick={() => setOpened(true)}>
          {w.payNow}
        </Button>
      ) : null}
      <Modal opened={opened} onClose={close} title={w.payNow} size="sm" closeOnClickOutside={!send.isPending} closeButtonProps={{ 'aria-label': w.close }}>
        {sent ? (
          payment ? (
            <PayNowProgress
              payment={payment}
              polling={{ failed: followed.isError }}
              phone={phone}
              onTryAgain={() => {
                send.reset();
                setAgain(sent.values);
                setSent(null);
              }}
              onClose={close}
              w={w}
            />
          ) : (
            <Center py="lg">
              <Loader size="sm" />
            </Center>
          )
        ) : provider ? (
          <PayNowForm
            key={again ? 'again' : 'new'}
            device={device}
            providers={providers}
            phone={phone}
            initial={again ? { ...again, provider } : { provider, amount: '' }}
            send={send}
            onSent={(id, values) => setSent({ id, values })}
            w={w}
          />
        ) : null}
      </Modal>
    </>
  );
}
