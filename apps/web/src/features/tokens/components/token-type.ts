const LABELS: Record<string, string> = {
  add_time: 'Add time',
  set_time: 'Set time',
  activation: 'Activation',
  unlock: 'Unlock',
  counter_sync: 'Counter sync',
  daily: 'Daily',
};

/** 'add_time' → 'Add time'; unknown types read as themselves, capitalised. */
export function tokenTypeLabel(type: string | null | undefined): string {
  const t = (type ?? '').trim();
  if (!t) return '—';
  return LABELS[t] ?? t.charAt(0).toUpperCase() + t.slice(1).replace(/_/g, ' ');
}
