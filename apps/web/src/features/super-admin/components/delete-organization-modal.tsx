import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { ApiError, errorMessage } from '@/lib/api-client';
import { useDeleteOrganization } from '../api/delete-organization';
import { useConsoleFeedback } from './console-feedback';

export const DELETE_ORG_QUESTION = 'Are you sure you want to delete this organization? This action cannot be undone.';

/**
 * Deleting asks first. An organization that still holds data is refused with
 * what would be lost (409); the admin may then delete everything on purpose.
 */
export function DeleteOrganizationModal({ organizationId, onClose, onDeleted }: { organizationId: string | null; onClose: () => void; onDeleted?: () => void }) {
  const feedback = useConsoleFeedback();
  const remove = useDeleteOrganization();
  const refusal = remove.error instanceof ApiError && remove.error.status === 409 && remove.variables?.force !== true ? remove.error.message : null;
  const close = () => {
    if (remove.isPending) return;
    remove.reset();
    onClose();
  };
  const run = (force: boolean) => {
    if (!organizationId) return;
    remove.mutate(
      { id: organizationId, force },
      {
        onSuccess: () => {
          feedback.success('Organization deleted successfully');
          remove.reset();
          onClose();
          onDeleted?.();
        },
        onError: (e) => {
          // A refusal with the list of what would be lost is answered in the dialog, not as a failure.
          if (!(e instanceof ApiError && e.status === 409 && !force)) feedback.error(errorMessage(e, 'Failed to delete organization'));
        },
      },
    );
  };
  return (
    <Modal opened={organizationId !== null} onClose={close} title="Delete Organization" centered>
      <Stack gap="md">
        <Text size="sm">
          {DELETE_ORG_QUESTION}
        </Text>
        <Text size="sm" c="dimmed">
          Organization: <b>{organizationId}</b>
        </Text>
        {refusal ? (
          <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />} title="This organization still holds data" role="alert">
            {refusal}
          </Alert>
        ) : remove.isError ? (
          <Alert color="red" variant="light" role="alert">
            {errorMessage(remove.error, 'Failed to delete organization')}
          </Alert>
        ) : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={close} disabled={remove.isPending}>
            Cancel
          </Button>
          {refusal ? (
            <Button color="red" onClick={() => run(true)} loading={remove.isPending}>
              Force Delete Everything
            </Button>
          ) : (
            <Button color="red" onClick={() => run(false)} loading={remove.isPending}>
              Delete Organization
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}
