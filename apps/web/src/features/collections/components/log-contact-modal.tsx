import { Divider, Modal } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { toast } from '@/lib/notify';
import { useLogContact } from '../api/log-contact';
import type { CollectionAccount } from '../api/types';
import { ContactForm } from './contact-form';
import { ContactHistory } from './contact-history';

/** What the modal needs of a row: a device out of credit and a promise's row both have it. */
export type ContactTarget = Pick<CollectionAccount, 'item_id' | 'serial_number' | 'customer_name'>;

/**
 * Log Contact: what came of a call or visit about a device out of credit
 * or promised to pay, with the device's earlier contacts under the form. Full screen on a phone,
 * where collectors log their calls. `account` stays set while the modal
 * closes, so its title does not empty during the transition; the form and
 * history mount afresh at each opening.
 */
export function LogContactModal({
  account,
  opened,
  onClose,
  today,
}: {
  account: ContactTarget | null;
  opened: boolean;
  onClose: () => void;
  today: string;
}) {
  const phone = useMediaQuery('(max-width: 48em)');
  const log = useLogContact();

  const close = () => {
    if (log.isPending) return;
    log.reset();
    onClose();
  };

  return (
    <Modal
      opened={opened && account !== null}
      onClose={close}
      title={account ? `Log Contact — ${account.customer_name} · ${account.serial_number}` : 'Log Contact'}
      size="lg"
      fullScreen={phone}
      closeOnClickOutside={!log.isPending}
    >
      {account ? (
        <>
          <ContactForm
            itemId={account.item_id}
            today={today}
            log={log}
            onLogged={() => {
              toast.success('Contact logged');
              log.reset();
              onClose();
            }}
            onCancel={close}
          />
          <Divider my="lg" />
          <ContactHistory itemId={account.item_id} />
        </>
      ) : null}
    </Modal>
  );
}
