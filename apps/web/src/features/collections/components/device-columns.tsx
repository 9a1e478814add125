import { ActionIcon, Anchor, Stack, Text, Tooltip } from '@mantine/core';
import { IconPhonePlus } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import type { Column } from '@/components/ui/data-table';
import { paths } from '@/config/paths';
import { SendSmsButton, type SmsTarget } from '@/features/customer-sms/components/send-sms-modal';
import { AskToPayAction, type AskToPayTarget } from '@/features/mpesa-express/components/ask-to-pay-modal';
import type { CollectionAccount } from '../api/types';
import type { ContactTarget } from './log-contact-modal';

export const dash = (
  <Text span size="sm" c="dimmed">
    —
  </Text>
);

/**
 * For names that may hold a long unbroken code ("Plan-MWVYJW7PT0"): they may
 * wrap inside it, so the table's narrowest layout still fits a laptop's
 * screen instead of scrolling sideways for a few pixels.
 */
export const BREAK_ANYWHERE = { overflowWrap: 'anywhere' } as const;

/** The link colour of the other tables' customer names. */
const LINK_COLOR = 'var(--mantine-primary-color-filled)';

/** What both of the screen's tables show of a row: whom to call, how, and about which device. */
type DeviceRow = Pick<CollectionAccount, 'customer_id' | 'customer_name' | 'phone_number' | 'serial_number' | 'product_name'>;

/**
 * Customer, Phone and Device, the first columns of both tables: on a phone
 * a table scrolls sideways and whom to call, and how, stay in view.
 */
export function deviceColumns<T extends DeviceRow>(): Column<T>[] {
  return [
    {
      key: 'customer',
      header: 'Customer',
      render: (a) => (
        <Text component={Link} to={paths.app.customerPaymentDetails.getHref(a.customer_id)} size="sm" fw={500} c={LINK_COLOR} style={BREAK_ANYWHERE}>
          {a.customer_name}
        </Text>
      ),
    },
    {
      key: 'phone',
      header: 'Phone',
      render: (a) =>
        a.phone_number ? (
          <Anchor href={`tel:${a.phone_number.replace(/[^\d+]/g, '')}`} size="sm" style={{ whiteSpace: 'nowrap' }}>
            {a.phone_number}
          </Anchor>
        ) : (
          dash
        ),
    },
    {
      key: 'device',
      header: 'Device',
      render: (a) => (
        <Stack gap={0}>
          <Text component={Link} to={paths.app.deviceActivity.getHref(a.serial_number)} size="sm" fw={600} ff="monospace" c={LINK_COLOR}>
            {a.serial_number}
          </Text>
          <Text size="xs" c="dimmed" style={BREAK_ANYWHERE}>
            {a.product_name}
          </Text>
        </Stack>
      ),
    },
  ];
}

/** The row's Log Contact button, named for its customer and device so a screen reader (and a test) tells the rows apart. */
export function LogContactButton<T extends ContactTarget>({ row, onLogContact }: { row: T; onLogContact: (row: T) => void }) {
  return (
    <Tooltip label="Log Contact" withArrow>
      <ActionIcon variant="light" aria-label={`Log Contact for ${row.customer_name} · ${row.serial_number}`} onClick={() => onLogContact(row)}>
        <IconPhonePlus size={16} />
      </ActionIcon>
    </Tooltip>
  );
}

/**
 * A row's actions: Log Contact, and under it Send SMS and Ask to Pay (side by
 * side they widened the table past a laptop screen). `payHints` are what the
 * row knows of the plan, shown under Ask to Pay's amount.
 */
export function ContactActions<T extends ContactTarget & Pick<CollectionAccount, 'customer_id' | 'phone_number' | 'sms_opted_out'>>({
  row,
  onLogContact,
  onSendSms,
  onAskToPay,
  payHints,
}: {
  row: T;
  onLogContact: (row: T) => void;
  onSendSms?: (target: SmsTarget) => void;
  /** Ask the row's customer to pay for its device with M-Pesa Express; no button without it. */
  onAskToPay?: (target: AskToPayTarget) => void;
  payHints?: Pick<AskToPayTarget, 'dailyPrice' | 'remaining' | 'currency'>;
}) {
  return (
    <Stack gap={4}>
      <LogContactButton row={row} onLogContact={onLogContact} />
      {onSendSms ? (
        <SendSmsButton
          target={{
            customerId: row.customer_id,
            customerName: row.customer_name,
            phone: row.phone_number,
            serialNumber: row.serial_number,
            optedOut: row.sms_opted_out,
          }}
          onSend={onSendSms}
        />
      ) : null}
      {onAskToPay ? (
        <AskToPayAction
          target={{
            serialNumber: row.serial_number,
            customerId: row.customer_id,
            customerName: row.customer_name,
            phone: row.phone_number,
            ...payHints,
          }}
          onAsk={onAskToPay}
        />
      ) : null}
    </Stack>
  );
}
