import { Alert, Modal, Stack } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { toast } from '@/lib/notify';
import { useSession } from '@/lib/session';
import { useCreateTemplate } from '../api/create-template';
import { useUpdateTemplate } from '../api/update-template';
import { useTemplateUsage } from '../api/get-template-usage';
import type { PaymentTemplate } from '../api/types';
import { fromTemplate, TemplateForm } from './template-form';

export const CREATE_FAILED = 'Failed to create template';
export const UPDATE_FAILED = 'Failed to update template';

export function CreateTemplateModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const create = useCreateTemplate();
  const { organizationId } = useSession();
  const phone = useMediaQuery('(max-width: 48em)');
  return (
    <Modal opened={opened} onClose={onClose} title="Create Template" size="lg" fullScreen={phone} closeOnClickOutside={false}>
      {opened ? (
        <TemplateForm
          submitLabel="Create Template"
          failureTitle={CREATE_FAILED}
          onCancel={onClose}
          onSubmit={async (input) => {
            const created = await create.mutateAsync({ ...input, organization_id: organizationId });
            toast.success(`Template ${created?.template_name ?? input.template_name} created successfully`);
            onClose();
          }}
        />
      ) : null}
    </Modal>
  );
}

/**
 * A plan's terms are the contracts of whoever is on it: said before they are changed for all of them (the change is
 * in the Activity Log with each field before and after).
 */
function OnThisPlan({ template }: { template: PaymentTemplate }) {
  const usage = useTemplateUsage(template.template_id);
  const n = usage.data?.active_assignments ?? 0;
  if (!n) return null;
  return (
    <Alert color="yellow" title={`${n} ${n === 1 ? 'customer or device is' : 'customers or devices are'} on this plan`}>
      Changing its deposit, prices, grace period, currency or free code price changes their contracts too: what they
      are expected to have paid by today, the days each payment buys and what is left to pay. To charge new customers
      differently, create a new template instead.
    </Alert>
  );
}

/** Edit saves every field with PUT /payments/templates/{id}. */
export function EditTemplateModal({ template, onClose }: { template: PaymentTemplate | null; onClose: () => void }) {
  const update = useUpdateTemplate();
  const phone = useMediaQuery('(max-width: 48em)');
  return (
    <Modal
      opened={template !== null}
      onClose={onClose}
      title={template ? `Edit ${template.template_name}` : 'Edit Template'}
      size="lg"
      fullScreen={phone}
      closeOnClickOutside={false}
    >
      {template ? (
        <Stack gap="md">
          <OnThisPlan template={template} />
          <TemplateForm
            key={template.template_id}
            initialValues={fromTemplate(template)}
            submitLabel="Save Changes"
            failureTitle={UPDATE_FAILED}
            onCancel={onClose}
            onSubmit={async (input) => {
              await update.mutateAsync({ id: template.template_id, changes: input });
              toast.success('Template updated successfully');
              onClose();
            }}
          />
        </Stack>
      ) : null}
    </Modal>
  );
}
