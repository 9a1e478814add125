import { Anchor, Badge, Card, Group, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconDeviceMobileCharging } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { BroughtOver, Transferred } from '@kidogo/contracts';
import { formatDate } from '@/components/ui/date-text';
import { formatMoney } from '@/components/ui/money';
import { paths } from '@/config/paths';
import { useOrganizationCurrency } from '@/lib/organization-currency';
import { RepaymentBadge, repaymentSentence } from '@/features/customer-payment-details/components/repayment-standing';
import { DeviceWarrantyLine } from '@/features/warranties/components/device-warranty';
import { ProductStatusBadge } from '@/features/products/components/product-status-badge';
import type { DeviceInfo } from '../api/types';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase" lts={0.3}>
        {label}
      </Text>
      <Text size="sm" fw={500} component="div">
        {children}
      </Text>
    </Stack>
  );
}

/** "Brought over from another system on 3 Dec 2026 by amina: KES 4,500.00 paid before, account began 1 Mar 2025". */
export function broughtOverSentence(b: BroughtOver, currency: string | null): string {
  const by = b.imported_by ? ` by ${b.imported_by}` : '';
  return `Brought over from another system on ${formatDate(b.imported_at)}${by}: ${formatMoney(b.paid, currency)} paid before, account began ${formatDate(b.started_at)}`;
}

/**
 * "Taken over from Amina Wanjiru on 3 Dec 2026: KES 4,500.00 paid before — The customer died; his son pays on",
 * the name a link to the customer's page.
 */
function TakenOverLine({ transferred, currency }: { transferred: Transferred; currency: string | null }) {
  return (
    <Text size="sm" c="dimmed" mt="md" aria-label="Taken over">
      Taken over from{' '}
      <Anchor component={Link} to={paths.app.customerPaymentDetails.getHref(transferred.from_customer_id)} size="sm" fw={600}>
        {transferred.from_customer_name}
      </Anchor>{' '}
      on {formatDate(transferred.transferred_at)}: {formatMoney(transferred.paid, currency)} paid before — {transferred.reason}
    </Text>
  );
}

/** Device Information: serial number, product name, product OEM, who has it, the stock location it is kept at (or was given out from), what is left to pay on it, its discounts, its warranty, and whether its account was brought over from another system or taken over from another customer. */
export function DeviceInfoCard({ device }: { device: DeviceInfo }) {
  const currency = useOrganizationCurrency();
  const assigned = device.is_assigned && device.customer_name;
  return (
    <Card padding="lg" radius="md" mb="lg" aria-label="Device Information" role="region">
      <Group gap="sm" mb="md" wrap="nowrap">
        <ThemeIcon variant="light" size={40} radius="md" aria-hidden>
          <IconDeviceMobileCharging size={22} />
        </ThemeIcon>
        <div>
          <Title order={4}>Device Information</Title>
          <Text size="sm" c="dimmed">
            Token count {device.token_count ?? 0}
            {device.credit_until ? ` · credit until ${formatDate(device.credit_until, true)}` : ''}
          </Text>
        </div>
      </Group>
      <SimpleGrid cols={{ base: 2, md: 4 }} spacing="lg">
        <Field label="Serial Number">
          <Text span ff="monospace" fw={600}>
            {device.serial_number}
          </Text>
        </Field>
        <Field label="Product Name">{device.product_name || '—'}</Field>
        <Field label="Product OEM">{device.product_oem || device.manufacturer || '—'}</Field>
        <Field label="Status">
          {assigned ? (
            <Group gap={6} wrap="wrap">
              <Badge miw="max-content" color="green" variant="light" radius="sm">
                Assigned
              </Badge>
              <span>
                Assigned to{' '}
                {device.customer_id ? (
                  <Anchor component={Link} to={paths.app.customerPaymentDetails.getHref(device.customer_id)} size="sm" fw={600}>
                    {device.customer_name}
                  </Anchor>
                ) : (
                  device.customer_name
                )}
              </span>
            </Group>
          ) : (
            <Group gap={6} wrap="wrap">
              <Badge miw="max-content" color="gray" variant="light" radius="sm">
                Unassigned
              </Badge>
              {/* In stock unless it is being checked or was retired (not recovered from a customer, say). */}
              {device.status === 'maintenance' || device.status === 'retired' ? <ProductStatusBadge status={device.status} /> : null}
            </Group>
          )}
        </Field>
        <Field label="Location">
          {device.location_name ? (
            device.location_name
          ) : (
            <Text span size="sm" c="dimmed">
              Not placed
            </Text>
          )}
        </Field>
        {device.price !== undefined ? <Field label="Price">{formatMoney(device.price, currency)}</Field> : null}
        {device.total_paid !== undefined ? <Field label="Total Paid">{formatMoney(device.total_paid, currency)}</Field> : null}
        {/* What is left to pay and the discounts on this account are in the currency of the device's plan. */}
        {device.remaining !== undefined && device.remaining !== null ? (
          <Field label="Left to Pay">{formatMoney(device.remaining, device.payment_plan?.currency ?? currency)}</Field>
        ) : null}
        {device.discount !== undefined && device.discount !== null && Number(device.discount) !== 0 ? (
          <Field label="Discount">{formatMoney(device.discount, device.payment_plan?.currency ?? currency)}</Field>
        ) : null}
        {device.assigned_at ? <Field label="Assigned Date">{formatDate(device.assigned_at)}</Field> : null}
        {/* Only a device someone has, of a product with a warranty set (Settings → Warranties). */}
        {device.warranty ? (
          <Field label="Warranty">
            <DeviceWarrantyLine warranty={device.warranty} />
          </Field>
        ) : null}
        {device.is_assigned ? (
          <Field label="Payment Plan">
            {device.payment_plan ? (
              <Group gap={6} wrap="wrap">
                <span>
                  {device.payment_plan.template_name} · {formatMoney(device.payment_plan.daily_price, device.payment_plan.currency)}/day
                </span>
                <Badge miw="max-content" variant="light" radius="sm" color={device.payment_plan.own ? 'violet' : 'gray'}>
                  {device.payment_plan.own ? 'This device only' : "Customer's plan"}
                </Badge>
              </Group>
            ) : (
              <Text span size="sm" c="dimmed">
                None: payments are held as credit
              </Text>
            )}
          </Field>
        ) : null}
        {device.is_assigned && device.repayment?.standing ? (
          <Field label="Repayment Standing">
            <Group gap={6} wrap="wrap">
              <RepaymentBadge repayment={device.repayment} />
              <Text span size="sm" c="dimmed">
                {repaymentSentence(device.repayment, device.payment_plan?.currency ?? currency, true)}
              </Text>
            </Group>
          </Field>
        ) : null}
      </SimpleGrid>
      {/* The part of its total paid that was paid in the other system is in the currency of the device's plan. */}
      {device.brought_over ? (
        <Text size="sm" c="dimmed" mt="md" aria-label="Brought over">
          {broughtOverSentence(device.brought_over, device.payment_plan?.currency ?? currency)}
        </Text>
      ) : null}
      {/* What was paid on the account before its holder took it over is part of its total paid, in the plan's currency. */}
      {device.transferred ? <TakenOverLine transferred={device.transferred} currency={device.payment_plan?.currency ?? currency} /> : null}
    </Card>
  );
}
