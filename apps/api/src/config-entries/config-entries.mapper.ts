import type { ConfigEntry } from '@kidogo/contracts';

export const ConfigEntriesMapper = {
  entry(e: { id: number; organization_id: string; key: string; value: unknown; description: string | null; created_at: Date; updated_at: Date }): ConfigEntry {
    return {
      config_id: e.id,
      organization_id: e.organization_id,
      key: e.key,
      value: e.value,
      description: e.description,
      created_at: e.created_at.toISOString(),
      updated_at: e.updated_at.toISOString(),
    };
  },
};
