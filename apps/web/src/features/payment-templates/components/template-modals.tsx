import { Modal } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { toast } from '@/lib/notify';
import { useSession } from '@/lib/session';
import { useCreateTemplate } from '../api/create-template';
import { useUpdateTemplate } from '../api/update-template';
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
      ) : null}
    </Modal>
  );
}
