import { Button, Group, Modal, PasswordInput, Select, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ORG_USER_ROLES, ZCreateOrgUserSchema, ZUpdateOrgUserSchema, type Role } from '@kidogo/contracts';
import { useState } from 'react';
import { ErrorAlert } from '@/components/ui/error-alert';
import { roleLabel } from '@/components/ui/role-badge';
import { apiFieldErrors, errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import { labelledFieldErrors, schemaErrors } from '@/lib/validation';
import { useCreateTeamUser } from '../api/create-team-user';
import type { TeamUser, UpdateOrgUserInput } from '../api/types';
import { useUpdateTeamUser } from '../api/update-team-user';

const LABELS = { username: 'Username', email: 'Email', password: 'Password', role: 'Role', is_active: 'Active' };

type OrgRole = (typeof ORG_USER_ROLES)[number];

/** The roles the signed-in user may give: an admin may not make owners (the API refuses it with 403). */
export function assignableRoles(actor: Role | undefined): OrgRole[] {
  return ORG_USER_ROLES.filter((r) => r !== 'owner' || actor === 'owner' || actor === 'super_admin');
}

const roleOptions = (roles: readonly Role[], current?: Role) => [
  ...roles.map((r) => ({ value: r, label: roleLabel(r) })),
  // The user's present role even when the actor may not give it (an admin looking at an owner).
  ...(current && !roles.includes(current) ? [{ value: current, label: roleLabel(current), disabled: true }] : []),
];

/** 400s go next to their fields; any other refusal (403, 409) is shown as the API words it. */
function useRefusal() {
  const [message, setMessage] = useState<string | null>(null);
  return {
    message,
    clear: () => setMessage(null),
    handle(error: unknown, setErrors: (errors: Record<string, string>) => void, fallback: string) {
      const fields = labelledFieldErrors(apiFieldErrors(error), LABELS) as Record<string, string>;
      setErrors(fields);
      setMessage(Object.keys(fields).length ? null : errorMessage(error, fallback));
    },
  };
}

function ModalButtons({ onCancel, pending, label, disabled = false }: { onCancel: () => void; pending: boolean; label: string; disabled?: boolean }) {
  return (
    <Group justify="flex-end" gap="sm">
      <Button variant="default" onClick={onCancel} disabled={pending}>
        Cancel
      </Button>
      <Button type="submit" disabled={pending || disabled}>
        {pending ? 'Saving...' : label}
      </Button>
    </Group>
  );
}

interface NewUser {
  username: string;
  email: string;
  password: string;
  role: OrgRole;
}

export function AddTeamUserModal({ opened, onClose, actorRole }: { opened: boolean; onClose: () => void; actorRole: Role | undefined }) {
  const create = useCreateTeamUser();
  const refusal = useRefusal();
  const form = useForm<NewUser>({
    initialValues: { username: '', email: '', password: '', role: 'staff' },
    validate: (v) => schemaErrors(ZCreateOrgUserSchema, v, LABELS),
    onValuesChange: () => refusal.clear(),
  });
  const close = () => {
    if (create.isPending) return;
    form.reset();
    refusal.clear();
    onClose();
  };
  const submit = form.onSubmit((v) =>
    create.mutate(
      { username: v.username.trim(), email: v.email.trim(), password: v.password, role: v.role },
      {
        onSuccess: (user) => {
          toast.success(`User ${user.username} added`);
          form.reset();
          onClose();
        },
        onError: (e) => refusal.handle(e, form.setErrors, 'Failed to add the user'),
      },
    ),
  );
  return (
    <Modal opened={opened} onClose={close} title="Add User" centered size="lg">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput label="Username" withAsterisk data-autofocus autoComplete="off" {...form.getInputProps('username')} />
            <TextInput label="Email" type="email" withAsterisk {...form.getInputProps('email')} />
            <PasswordInput label="Password" withAsterisk description="At least 8 characters" autoComplete="new-password" {...form.getInputProps('password')} />
            <Select
              label="Role"
              description="Staff do not manage users or settings"
              allowDeselect={false}
              data={roleOptions(assignableRoles(actorRole))}
              {...form.getInputProps('role')}
            />
          </SimpleGrid>
          {refusal.message ? <ErrorAlert title="Failed to add the user" message={refusal.message} /> : null}
          <ModalButtons onCancel={close} pending={create.isPending} label="Add User" />
        </Stack>
      </form>
    </Modal>
  );
}

interface Edit {
  email: string;
  role: Role;
  is_active: boolean;
  password: string;
}

/** What the form changed, and nothing else: an unchanged role is not sent (so an admin may edit a staff user's email without a role check). */
function changesOf(user: TeamUser, v: Edit): UpdateOrgUserInput {
  const changes: UpdateOrgUserInput = {};
  const email = v.email.trim() || null;
  if (email !== (user.email ?? null)) changes.email = email;
  // The select offers only the actor's assignable roles, plus the user's present one (which is then unchanged).
  if (v.role !== user.role) changes.role = v.role as OrgRole;
  if (v.is_active !== user.is_active) changes.is_active = v.is_active;
  if (v.password) changes.password = v.password;
  return changes;
}

/** Opened with a user; mounted per user (key it by the user id) so the form starts from that user's values. */
export function EditTeamUserModal({ user, self, actorRole, onClose }: { user: TeamUser; self: boolean; actorRole: Role | undefined; onClose: () => void }) {
  const update = useUpdateTeamUser();
  const refusal = useRefusal();
  const form = useForm<Edit>({
    initialValues: { email: user.email ?? '', role: user.role, is_active: user.is_active, password: '' },
    validate: (v) => schemaErrors(ZUpdateOrgUserSchema, changesOf(user, v), LABELS),
    onValuesChange: () => refusal.clear(),
  });
  const changes = changesOf(user, form.getValues());
  const close = () => !update.isPending && onClose();
  const submit = form.onSubmit((v) =>
    update.mutate(
      { id: user.user_id, changes: changesOf(user, v) },
      {
        onSuccess: () => {
          toast.success(`User ${user.username} updated`);
          onClose();
        },
        onError: (e) => refusal.handle(e, form.setErrors, 'Failed to update the user'),
      },
    ),
  );
  return (
    <Modal opened onClose={close} title={`Edit ${user.username}`} centered size="lg">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput label="Email" type="email" {...form.getInputProps('email')} />
            <Select label="Role" allowDeselect={false} data={roleOptions(assignableRoles(actorRole), user.role)} {...form.getInputProps('role')} />
          </SimpleGrid>
          <Switch label="Active (can sign in)" {...form.getInputProps('is_active', { type: 'checkbox' })} />
          {self ? (
            <Text size="sm" c="dimmed">
              To change your own password, use Change Password on this page.
            </Text>
          ) : (
            <PasswordInput
              label="Reset password"
              description="Leave empty to keep the current password. A new one signs the user out everywhere."
              autoComplete="new-password"
              {...form.getInputProps('password')}
            />
          )}
          {refusal.message ? <ErrorAlert title="Failed to update the user" message={refusal.message} /> : null}
          <ModalButtons onCancel={close} pending={update.isPending} label="Save Changes" disabled={Object.keys(changes).length === 0} />
        </Stack>
      </form>
    </Modal>
  );
}
