import { ActionIcon, Badge, Box, Button, Card, Group, Text, Title, Tooltip, VisuallyHidden } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconLogout, IconPencil, IconShieldOff, IconShieldPlus, IconTrash, IconUserPlus, IconUsers } from '@tabler/icons-react';
import { TWO_FACTOR_SETUP_DAYS } from '@kidogo/contracts';
import { useState } from 'react';
import { ConfirmModal } from '@/components/ui/confirm-modal';
import { DataTable, type Column } from '@/components/ui/data-table';
import { DateText } from '@/components/ui/date-text';
import { PaginationControl } from '@/components/ui/pagination-control';
import { RoleBadge } from '@/components/ui/role-badge';
import { SearchBar, useSearchTerm } from '@/components/ui/search-bar';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import { useSession } from '@/lib/session';
import { useDeleteTeamUser } from '../api/delete-team-user';
import { TEAM_PAGE_SIZE, useTeam } from '../api/get-team';
import { useResetTeamUserTwoFactor } from '../api/reset-team-user-two-factor';
import { useSignOutTeamUser } from '../api/sign-out-team-user';
import type { TeamUser } from '../api/types';
import { AddTeamUserModal, EditTeamUserModal } from './team-user-modals';
import { useSecuritySettings } from '@/features/two-factor/api/security-settings';

export const DELETE_FAILED = 'Failed to delete the user';
export const RESET_TWO_FACTOR_FAILED = 'Failed to reset two-factor sign-in';
export const SIGN_OUT_FAILED = 'Failed to sign the user out';

/** The people who sign in to the organization: owners and admins add, edit and remove them (GET/POST/PUT/DELETE /users). */
export function TeamCard() {
  const { user: me } = useSession();
  const [page, setPage] = useState(1);
  const search = useSearchTerm({ onApply: () => setPage(1) });
  const team = useTeam(search.term, (page - 1) * TEAM_PAGE_SIZE);
  const [adding, addModal] = useDisclosure(false);
  const [editing, setEditing] = useState<TeamUser | null>(null);
  const [deleting, setDeleting] = useState<TeamUser | null>(null);
  const remove = useDeleteTeamUser();
  const [resetting, setResetting] = useState<TeamUser | null>(null);
  const resetTwoFactor = useResetTeamUserTwoFactor();
  // Where two-factor sign-in is required, a user without it has TWO_FACTOR_SETUP_DAYS to set it up; a reset gives more.
  const required = useSecuritySettings().data?.require_two_factor === true;
  const [signingOut, setSigningOut] = useState<TeamUser | null>(null);
  const signOut = useSignOutTeamUser();
  // Not yourself (Signed-In Devices does that, and ends this session too); an admin not an owner, as the API refuses.
  const maySignOut = (u: TeamUser) => u.user_id !== me?.user_id && !(me?.role === 'admin' && u.role === 'owner');

  const closeDelete = () => {
    if (remove.isPending) return;
    remove.reset();
    setDeleting(null);
  };
  const confirmDelete = () =>
    deleting &&
    remove.mutate(deleting.user_id, {
      onSuccess: (reply) => {
        toast.success(reply?.message ?? `User ${deleting.username} deleted`);
        remove.reset();
        setDeleting(null);
      },
    });

  const closeReset = () => {
    if (resetTwoFactor.isPending) return;
    resetTwoFactor.reset();
    setResetting(null);
  };
  const confirmReset = () =>
    resetting &&
    resetTwoFactor.mutate(resetting.user_id, {
      onSuccess: (reply) => {
        toast.success(reply?.message ?? `Two-factor sign-in of ${resetting.username} reset`);
        resetTwoFactor.reset();
        setResetting(null);
      },
    });

  const closeSignOut = () => {
    if (signOut.isPending) return;
    signOut.reset();
    setSigningOut(null);
  };
  const confirmSignOut = () =>
    signingOut &&
    signOut.mutate(signingOut.user_id, {
      onSuccess: (reply) => {
        toast.success(reply?.message ?? `${signingOut.username} is signed out everywhere`);
        signOut.reset();
        setSigningOut(null);
      },
    });

  const columns: Column<TeamUser>[] = [
    {
      key: 'username',
      header: 'Username',
      render: (u) => (
        <Group gap={6} wrap="nowrap">
          <Text size="sm" fw={600}>
            {u.username}
          </Text>
          {u.user_id === me?.user_id ? (
            // Kept whole in a narrow column (a phone), like RoleBadge: the column widens instead.
            <Badge size="xs" variant="outline" radius="sm" miw="max-content">
              You
            </Badge>
          ) : null}
          {u.two_factor_enabled ? (
            <Tooltip label="Signs in with a code from an authenticator app too" withArrow>
              <Badge size="xs" variant="light" color="teal" radius="sm" miw="max-content">
                2FA
              </Badge>
            </Tooltip>
          ) : null}
        </Group>
      ),
    },
    { key: 'email', header: 'Email', render: (u) => u.email || '—' },
    { key: 'role', header: 'Role', render: (u) => <RoleBadge role={u.role} /> },
    {
      key: 'active',
      header: 'Active',
      render: (u) => (
        <Badge color={u.is_active ? 'green' : 'gray'} variant="light" radius="sm" miw="max-content">
          {u.is_active ? 'Active' : 'Inactive'}
        </Badge>
      ),
    },
    { key: 'created', header: 'Created', render: (u) => <DateText value={u.created_at} /> },
    {
      key: 'actions',
      header: <VisuallyHidden>Actions</VisuallyHidden>,
      align: 'right',
      render: (u) => (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          {/* Someone else's, for a lost phone: your own is turned off with your password in Two-Factor Sign-In. */}
          {u.two_factor_enabled && u.user_id !== me?.user_id ? (
            <Tooltip label="Reset Two-Factor" withArrow>
              <ActionIcon variant="subtle" color="orange" aria-label={`Reset Two-Factor for ${u.username}`} onClick={() => setResetting(u)}>
                <IconShieldOff size={16} />
              </ActionIcon>
            </Tooltip>
          ) : required && u.user_id !== me?.user_id ? (
            <Tooltip label="Allow Two-Factor Set-Up" withArrow>
              <ActionIcon variant="subtle" color="orange" aria-label={`Allow Two-Factor Set-Up for ${u.username}`} onClick={() => setResetting(u)}>
                <IconShieldPlus size={16} />
              </ActionIcon>
            </Tooltip>
          ) : null}
          {maySignOut(u) ? (
            <Tooltip label="Sign Out Everywhere" withArrow>
              <ActionIcon variant="subtle" color="orange" aria-label={`Sign Out Everywhere for ${u.username}`} onClick={() => setSigningOut(u)}>
                <IconLogout size={16} />
              </ActionIcon>
            </Tooltip>
          ) : null}
          <Tooltip label="Edit" withArrow>
            <ActionIcon variant="subtle" aria-label={`Edit ${u.username}`} onClick={() => setEditing(u)}>
              <IconPencil size={16} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Delete" withArrow>
            <ActionIcon variant="subtle" color="red" aria-label={`Delete ${u.username}`} onClick={() => setDeleting(u)}>
              <IconTrash size={16} />
            </ActionIcon>
          </Tooltip>
        </Group>
      ),
    },
  ];

  return (
    <Card padding="lg" component="section" aria-label="Team">
      <Group justify="space-between" align="flex-start" mb="md" gap="sm">
        <div>
          <Group gap="sm" mb={4}>
            <IconUsers size={20} />
            <Title order={4}>Team</Title>
          </Group>
          <Text size="sm" c="dimmed">
            The people who sign in to your organization, and what each may do.
          </Text>
        </div>
        <Button leftSection={<IconUserPlus size={16} />} onClick={addModal.open}>
          Add User
        </Button>
      </Group>
      <Box mb="sm" maw={480}>
        <SearchBar
          value={search.input}
          onChange={search.setInput}
          onSubmit={search.submit}
          onClear={search.clear}
          label="Search team"
          placeholder="Search by username or email..."
        />
      </Box>
      <DataTable
        caption="Team"
        columns={columns}
        rows={team.data?.data}
        rowKey={(u) => u.user_id}
        loading={team.isPending}
        error={team.isError ? errorMessage(team.error, 'Failed to load the team') : null}
        onRetry={() => void team.refetch()}
        emptyText={search.term ? 'No users match your search' : 'No users yet'}
      />
      <PaginationControl page={page} total={team.data?.pagination.total ?? 0} pageSize={TEAM_PAGE_SIZE} onPageChange={setPage} itemLabel="users" />

      <AddTeamUserModal opened={adding} onClose={addModal.close} actorRole={me?.role} />
      {editing ? (
        <EditTeamUserModal key={editing.user_id} user={editing} self={editing.user_id === me?.user_id} actorRole={me?.role} onClose={() => setEditing(null)} />
      ) : null}
      <ConfirmModal
        opened={deleting !== null}
        onClose={closeDelete}
        onConfirm={confirmDelete}
        title="Delete user?"
        message={`Delete ${deleting?.username ?? 'this user'}? They will no longer be able to sign in. This cannot be undone.`}
        confirmLabel="Delete User"
        loading={remove.isPending}
        error={remove.isError ? errorMessage(remove.error, DELETE_FAILED) : null}
        errorTitle={DELETE_FAILED}
      />
      <ConfirmModal
        opened={resetting !== null}
        onClose={closeReset}
        onConfirm={confirmReset}
        title={resetting && !resetting.two_factor_enabled ? 'Allow two-factor set-up?' : 'Reset two-factor sign-in?'}
        message={
          resetting && !resetting.two_factor_enabled
            ? `${resetting.username} has not set up two-factor sign-in. They get ${TWO_FACTOR_SETUP_DAYS} days to set it up with their password: do this only when you know they asked, as anyone with their password could.`
            : `${resetting?.username ?? 'This user'} lost their phone? They will sign in with their password only until they set up two-factor sign-in again${required ? ` (within ${TWO_FACTOR_SETUP_DAYS} days)` : ''}, and every session they have is signed out.`
        }
        confirmLabel={resetting && !resetting.two_factor_enabled ? 'Allow Set-Up' : 'Reset Two-Factor'}
        loading={resetTwoFactor.isPending}
        error={resetTwoFactor.isError ? errorMessage(resetTwoFactor.error, RESET_TWO_FACTOR_FAILED) : null}
        errorTitle={RESET_TWO_FACTOR_FAILED}
      />
      <ConfirmModal
        opened={signingOut !== null}
        onClose={closeSignOut}
        onConfirm={confirmSignOut}
        title="Sign out everywhere?"
        message={`${signingOut?.username ?? 'This user'} is signed out on every device at once: they sign in again with their password.`}
        confirmLabel="Sign Out Everywhere"
        loading={signOut.isPending}
        error={signOut.isError ? errorMessage(signOut.error, SIGN_OUT_FAILED) : null}
        errorTitle={SIGN_OUT_FAILED}
      />
    </Card>
  );
}
