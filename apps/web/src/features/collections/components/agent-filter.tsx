import { Anchor, Select } from '@mantine/core';
import { IconUser } from '@tabler/icons-react';
import { MAX_AGENTS_LISTED, NO_AGENT } from '@kidogo/contracts';
import { errorMessage } from '@/lib/api-client';
import { useCollectionAgents } from '../api/get-collection-agents';
import type { AgentFilter } from '../api/types';

/** The band cards' label (FilterCard's): small, dimmed, in capitals. */
const CARD_LABEL = {
  // A block, not Mantine's inline-block: on the wrapper's taller line it would sit lower than the other cards' labels.
  display: 'block',
  fontSize: 'var(--mantine-font-size-xs)',
  color: 'var(--mantine-color-dimmed)',
  fontWeight: 600,
  textTransform: 'uppercase',
  letterSpacing: 0.3,
  marginBottom: 4,
} as const;

/** An agent as the filter lists it: NO_AGENT reads "No agent". */
export const agentLabel = (agent: string) => (agent === NO_AGENT ? 'No agent' : agent);

/** Whose devices, in a sentence: "agent AGT-001", or "customers without an agent". */
export const agentPhrase = (agent: string) => (agent === NO_AGENT ? 'customers without an agent' : `agent ${agent}`);

/**
 * The agents to offer: the server's list, and the chosen agent when the list
 * does not name it (a shared link to an agent whose devices have all been
 * paid off since, one past the first MAX_AGENTS_LISTED, or a list that failed
 * to load), so the field shows what the list is filtered by. NO_AGENT stays last.
 */
export function agentOptions(listed: string[], value: AgentFilter): { value: string; label: string }[] {
  const agents = value === null || listed.includes(value) ? listed : value === NO_AGENT ? [...listed, value] : [value, ...listed];
  return agents.map((a) => ({ value: a, label: agentLabel(a) }));
}

/**
 * The sales agent whose customers Out of Credit shows (a field agent's own
 * worklist), from GET /collections/agents; cleared, every agent's. When the
 * agents fail to load the list stays as it is (unfiltered, or the agent of
 * the URL) and the field says so, with Retry.
 */
export function AgentSelect({
  value,
  onChange,
  inCard = false,
}: {
  value: AgentFilter;
  onChange: (value: AgentFilter) => void;
  /** In a card beside the band cards (on a phone): labelled as they are, and as wide as the card. */
  inCard?: boolean;
}) {
  const agents = useCollectionAgents();
  return (
    <Select
      label="Agent"
      placeholder={agents.isPending ? 'Loading agents…' : 'All agents'}
      searchable
      clearable
      nothingFoundMessage="No agent of that name"
      // In a card, half a phone wide: the name has the room (the clear button stands in for the chevron once one is chosen).
      leftSection={inCard ? undefined : <IconUser size={16} />}
      clearSectionMode={inCard ? 'clear' : 'both'}
      data={agentOptions(agents.data?.agents ?? [], value)}
      value={value}
      onChange={(next) => onChange(next ?? null)}
      description={agents.data?.truncated ? `The first ${MAX_AGENTS_LISTED} agents` : undefined}
      error={
        agents.isError ? (
          <>
            Agents unavailable: {errorMessage(agents.error, 'Failed to load the agents')}{' '}
            <Anchor component="button" type="button" size="xs" onClick={() => void agents.refetch()}>
              Retry
            </Anchor>
          </>
        ) : undefined
      }
      w={inCard ? '100%' : { base: '100%', sm: 280 }}
      styles={inCard ? { label: CARD_LABEL } : undefined}
    />
  );
}
