import { QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { createQueryClient, refreshAfterWrite } from './query-client';

/** A server whose list is read by the caller, with a write in between. */
function fakeServer() {
  let rows = ['DEL-1'];
  const pending: (() => void)[] = [];
  return {
    write: () => (rows = []),
    /** The first read answers only when released, with what it read at the start (the snapshot before the write). */
    read: (hold: boolean) => {
      const snapshot = [...rows];
      if (!hold) return Promise.resolve(snapshot);
      return new Promise<string[]>((resolve) => pending.push(() => resolve(snapshot)));
    },
    release: () => pending.splice(0).forEach((r) => r()),
  };
}

async function listAfterWriteDuringFirstFetch(refresh: (qc: ReturnType<typeof createQueryClient>) => Promise<void>) {
  const qc = createQueryClient();
  const server = fakeServer();
  let calls = 0;
  const observer = new QueryObserver(qc, { queryKey: ['products', 'DEL-1'], queryFn: () => server.read(calls++ === 0) });
  const seen: (string[] | undefined)[] = [];
  const unsubscribe = observer.subscribe((r) => seen.push(r.data));
  await Promise.resolve();
  server.write(); // the delete commits while the search's first read is in flight
  const refreshed = refresh(qc);
  server.release();
  await refreshed;
  await new Promise((r) => setTimeout(r, 0));
  unsubscribe();
  return { data: qc.getQueryData<string[]>(['products', 'DEL-1']), calls };
}

describe('refreshAfterWrite', () => {
  it('reads again a list whose first fetch began before the write', async () => {
    const { data, calls } = await listAfterWriteDuringFirstFetch((qc) => refreshAfterWrite(qc));
    expect(calls).toBe(2);
    expect(data).toEqual([]);
  });

  it('is needed: invalidateQueries alone keeps the reply read before the write', async () => {
    const { data, calls } = await listAfterWriteDuringFirstFetch((qc) => qc.invalidateQueries());
    expect(calls).toBe(1);
    expect(data).toEqual(['DEL-1']);
  });

  it('only touches the queries the filters name', async () => {
    const qc = createQueryClient();
    qc.setQueryData(['a'], 1);
    qc.setQueryData(['b'], 2);
    await refreshAfterWrite(qc, { queryKey: ['a'] });
    expect(qc.getQueryState(['a'])?.isInvalidated).toBe(true);
    expect(qc.getQueryState(['b'])?.isInvalidated).toBe(false);
  });
});
