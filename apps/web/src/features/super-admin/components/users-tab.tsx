import { Button, Card, Group, Modal, PasswordInput, Select, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDisclosure } from '@mantine/hooks';
import { IconSearch, IconUserPlus } from '@tabler/icons-react';
import { ROLES, ZAdminCreateUserSchema, type Role } from '@kidogo/contracts';
import { useState } from 'react';
import { DataTable, type Column } from '@/components/ui/data-table';
import { ErrorAlert } from '@/components/ui/error-alert';
import { PaginationControl } from '@/components/ui/pagination-control';
import { RoleBadge, roleLabel } from '@/components/ui/role-badge';
import { errorMessage } from '@/lib/api-client';
import { schemaErrors } from '@/lib/validation';
import { organizationLabel, useOrganizationOptions } from '../api/get-organizations';
import type { AdminUser } from '../api/types';
import { USER_PAGE_SIZE, useCreateUser, useUsers } from '../api/users';
import { useConsoleFeedback } from './console-feedback';


export function UsersTab() {
  const [input, setInput] = useState('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [createOpened, createModal] = useDisclosure(false);
  const users = useUsers(search, (page - 1) * USER_PAGE_SIZE);

  const runSearch = () => {
    setSearch(input.trim());
    setPage(1);
  };

  const columns: Column<AdminUser>[] = [
    { key: 'id', header: 'User ID', render: (u) => u.user_id },
    { key: 'username', header: 'Username', render: (u) => <b>{u.username}</b> },
    { key: 'email', header: 'Email', render: (u) => u.email || '—' },
    { key: 'org', header: 'Organization', render: (u) => u.organization_id },
    {
      key: 'role',
      header: 'Role',
      render: (u) => <RoleBadge role={u.role} />,
    },
  ];

  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Title order={3}>User Management</Title>
        <Button leftSection={<IconUserPlus size={16} />} onClick={createModal.open}>
          Create User
        </Button>
      </Group>
      <Card padding="md" radius="md">
        <Group gap="sm" mb="md" wrap="nowrap" maw={520}>
          <TextInput
            aria-label="Search users"
            placeholder="Search users..."
            leftSection={<IconSearch size={16} />}
            value={input}
            onChange={(e) => setInput(e.currentTarget.value)}
            onKeyDown={(e) => e.key === 'Enter' && runSearch()}
            style={{ flex: 1 }}
          />
          <Button variant="light" onClick={runSearch}>
            Search
          </Button>
        </Group>
        <DataTable
          caption="Users"
          columns={columns}
          rows={users.data?.data}
          rowKey={(u) => u.user_id}
          loading={users.isPending}
          error={users.isError ? errorMessage(users.error, 'Failed to load users') : null}
          onRetry={() => void users.refetch()}
          emptyText={search ? 'No users match your search' : 'No users found'}
        />
        <PaginationControl page={page} total={users.data?.total ?? 0} pageSize={USER_PAGE_SIZE} onPageChange={setPage} itemLabel="users" />
      </Card>
      <CreateUserModal opened={createOpened} onClose={createModal.close} />
    </Stack>
  );
}

const CREATE_LABELS = { username: 'Username', email: 'Email', password: 'Password', organization_id: 'Organization', role: 'Role' };

interface Values {
  username: string;
  email: string;
  password: string;
  organization_id: string | null;
  role: Role;
}

function CreateUserModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const feedback = useConsoleFeedback();
  const create = useCreateUser();
  const orgs = useOrganizationOptions();
  const form = useForm<Values>({
    initialValues: { username: '', email: '', password: '', organization_id: null, role: 'staff' },
    // The API's own rules (ZAdminCreateUserSchema), so the form and the server agree.
    validate: (v) => schemaErrors(ZAdminCreateUserSchema, { ...v, organization_id: v.organization_id ?? '' }, CREATE_LABELS),
  });
  const close = () => {
    if (create.isPending) return;
    form.reset();
    create.reset();
    onClose();
  };
  const submit = form.onSubmit((v) =>
    create.mutate(
      { username: v.username.trim(), email: v.email.trim(), password: v.password, organization_id: v.organization_id ?? '', role: v.role },
      {
        onSuccess: (user) => {
          feedback.success(`User ${user?.username ?? v.username.trim()} created successfully`);
          form.reset();
          create.reset();
          onClose();
        },
        onError: (e) => feedback.error(errorMessage(e, 'Failed to create user')),
      },
    ),
  );
  return (
    <Modal opened={opened} onClose={close} title="Create User" centered size="lg">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput label="Username" withAsterisk data-autofocus {...form.getInputProps('username')} />
            <TextInput label="Email" type="email" withAsterisk {...form.getInputProps('email')} />
            <PasswordInput label="Password" withAsterisk description="At least 8 characters" {...form.getInputProps('password')} />
            <Select label="Role" allowDeselect={false} data={ROLES.map((r) => ({ value: r, label: roleLabel(r) }))} {...form.getInputProps('role')} />
          </SimpleGrid>
          <Select
            label="Organization"
            withAsterisk
            searchable
            placeholder={orgs.isPending ? 'Loading organizations...' : 'Choose an organization'}
            data={(orgs.data ?? []).map((o) => ({ value: o.organization_id, label: organizationLabel(o) }))}
            {...form.getInputProps('organization_id')}
          />
          {create.isError ? <ErrorAlert message={errorMessage(create.error, 'Failed to create user')} /> : null}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} disabled={create.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Create User
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
