import type { FindCustomer, FindCustomerField, FindDevice, FindPayment, FindReply } from '@kidogo/contracts';
import { Badge, Box, Group, Stack, Text, ThemeIcon, UnstyledButton } from '@mantine/core';
import { IconReceipt, IconSolarPanel, IconUser, type Icon } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { formatDate } from '@/components/ui/date-text';
import { Money } from '@/components/ui/money';
import { paths } from '@/config/paths';
import { ProductStatusBadge } from '@/features/products/components/product-status-badge';

/** One row of the results: what it is, and where Enter or a click leads. */
export type FindHit =
  | { kind: 'customer'; key: string; href: string; customer: FindCustomer }
  | { kind: 'device'; key: string; href: string; device: FindDevice }
  | { kind: 'payment'; key: string; href: string; payment: FindPayment };

type Kind = FindHit['kind'];

const GROUPS: { kind: Kind; label: string }[] = [
  { kind: 'customer', label: 'Customers' },
  { kind: 'device', label: 'Devices' },
  { kind: 'payment', label: 'Payments' },
];

/**
 * A payment opens its device's page, where it is listed; one on no device is
 * waiting in Held Payments, which is on the Messages page.
 */
export const paymentHref = (p: Pick<FindPayment, 'serial_number'>) =>
  p.serial_number ? paths.app.deviceActivity.getHref(p.serial_number) : paths.app.messages.getHref();

/** The rows in the order they are shown (and arrowed through): customers, devices, payments. */
export function hitsOf(reply: FindReply): FindHit[] {
  return [
    ...reply.customers.map((customer): FindHit => ({
      kind: 'customer',
      key: `customer-${customer.customer_id}`,
      href: paths.app.customerPaymentDetails.getHref(customer.customer_id),
      customer,
    })),
    ...reply.devices.map((device): FindHit => ({
      kind: 'device',
      key: `device-${device.serial_number}`,
      href: paths.app.deviceActivity.getHref(device.serial_number),
      device,
    })),
    ...reply.payments.map((payment): FindHit => ({
      kind: 'payment',
      key: `payment-${payment.payment_id}`,
      href: paymentHref(payment),
      payment,
    })),
  ];
}

/** Said when the term was found elsewhere than in the name, so the row shows why it is there. */
const MATCHED_LABELS: Partial<Record<FindCustomerField, string>> = {
  phone_contact: 'Phone',
  id_number: 'ID number',
  email: 'Email',
};

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

interface RowProps {
  icon: Icon;
  color: string;
  active: boolean;
  title: ReactNode;
  detail: ReactNode;
  aside: ReactNode;
}

function Row({ icon: RowIcon, color, active, title, detail, aside }: RowProps) {
  return (
    <Group gap="sm" wrap="nowrap">
      {/* Filled on the active row, which is tinted: a light icon would vanish into it. */}
      <ThemeIcon variant={active ? 'filled' : 'light'} color={color} size="lg" radius="md" aria-hidden>
        <RowIcon size={18} stroke={1.6} />
      </ThemeIcon>
      <Stack gap={0} style={{ flex: 1, minWidth: 0 }}>
        {title}
        <Text size="xs" c="dimmed" truncate>
          {detail}
        </Text>
      </Stack>
      <Box style={{ flexShrink: 0 }}>{aside}</Box>
    </Group>
  );
}

function CustomerRow({ customer: c, active }: { customer: FindCustomer; active: boolean }) {
  const matched = MATCHED_LABELS[c.matched];
  return (
    <Row
      icon={IconUser}
      color="kidogo"
      active={active}
      title={
        <Group gap={6} wrap="nowrap">
          <Text size="sm" fw={600} truncate style={{ minWidth: 0 }}>
            {c.customer_name}
          </Text>
          {matched ? (
            <Badge size="xs" variant="light" color="gray" radius="sm" style={{ flexShrink: 0 }}>
              {matched}
            </Badge>
          ) : null}
        </Group>
      }
      detail={[c.phone_contact, c.id_number && `ID ${c.id_number}`].filter(Boolean).join(' · ')}
      aside={
        <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          {plural(c.devices, 'device')}
        </Text>
      }
    />
  );
}

function DeviceRow({ device: d, active }: { device: FindDevice; active: boolean }) {
  const holder = d.customer_name ?? (d.status === 'available' ? 'In stock' : null);
  return (
    <Row
      icon={IconSolarPanel}
      color="blue"
      active={active}
      title={
        <Text size="sm" fw={600} ff="monospace" truncate>
          {d.serial_number}
        </Text>
      }
      detail={[d.product_name, holder].filter(Boolean).join(' · ')}
      aside={<ProductStatusBadge status={d.status} />}
    />
  );
}

function PaymentRow({ payment: p, active }: { payment: FindPayment; active: boolean }) {
  return (
    <Row
      icon={IconReceipt}
      color={p.hold_reason ? 'orange' : 'teal'}
      active={active}
      title={
        <Text size="sm" fw={600} ff="monospace" truncate>
          {p.transaction_code}
        </Text>
      }
      detail={
        <>
          {formatDate(p.paid_at)}
          {' · '}
          {p.hold_reason ? (
            <Text span inherit c="orange">
              Held: {p.hold_reason}
            </Text>
          ) : (
            [p.customer_name, p.serial_number].filter(Boolean).join(' · ') || 'No device'
          )}
        </>
      }
      aside={<Money amount={p.amount} currency={p.currency} size="sm" fw={600} />}
    />
  );
}

function HitContent({ hit, active }: { hit: FindHit; active: boolean }) {
  if (hit.kind === 'customer') return <CustomerRow customer={hit.customer} active={active} />;
  if (hit.kind === 'device') return <DeviceRow device={hit.device} active={active} />;
  return <PaymentRow payment={hit.payment} active={active} />;
}

/**
 * The results as a listbox of links, grouped under Customers, Devices and
 * Payments. Focus stays in the search box (it names the active row with
 * aria-activedescendant); the pointer moves the active row too, so the
 * keyboard carries on from where the mouse was.
 */
export function FindResults({
  id,
  hits,
  active,
  optionId,
  onActivate,
  onOpen,
}: {
  id: string;
  hits: FindHit[];
  active: number;
  optionId: (index: number) => string;
  onActivate: (index: number) => void;
  onOpen: () => void;
}) {
  const indexed = hits.map((hit, index) => ({ hit, index }));
  return (
    <Stack gap="sm" role="listbox" id={id} aria-label="Results">
      {GROUPS.map(({ kind, label }) => {
        const rows = indexed.filter(({ hit }) => hit.kind === kind);
        if (rows.length === 0) return null;
        const labelId = `${id}-${kind}`;
        return (
          <Stack gap={2} key={kind} role="group" aria-labelledby={labelId}>
            <Text id={labelId} size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" pb={2} style={{ letterSpacing: 0.4 }}>
              {label}
            </Text>
            {rows.map(({ hit, index }) => (
              <UnstyledButton
                key={hit.key}
                component={Link}
                to={hit.href}
                id={optionId(index)}
                role="option"
                aria-selected={index === active}
                tabIndex={-1}
                onMouseMove={() => index !== active && onActivate(index)}
                onClick={onOpen}
                px="sm"
                py={8}
                style={{
                  display: 'block',
                  borderRadius: 'var(--mantine-radius-md)',
                  background: index === active ? 'var(--mantine-primary-color-light)' : undefined,
                }}
              >
                <HitContent hit={hit} active={index === active} />
              </UnstyledButton>
            ))}
          </Stack>
        );
      })}
    </Stack>
  );
}
