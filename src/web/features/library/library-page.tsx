import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import type { LibraryItem, LibraryKind, LibraryMaster } from '../../../shared/api/library';
import { Input } from '../../components/ui/input';
import { LoadingScreen } from '../../components/ui/spinner';
import { toast } from '../../components/ui/use-toast';
import { userMessage } from '../../lib/api-client';
import { saveFile } from '../../lib/save-file';
import { usePageTitle } from '../../lib/use-page-title';
import { deleteItem, fetchKeptFile, fetchLibrary, LIBRARY_QUERY_KEY, renameItem } from './library-api';
import { type ItemActions, LibraryItemRow } from './library-item';
import { formatBytes, LIBRARY_TEXT } from './library-texts';

/** The API's kind of an item: uploads and mixes are both tracks. */
const apiKind = (item: LibraryItem): LibraryKind =>
  item.kind === 'upload' || item.kind === 'mix' ? 'track' : item.kind;

const inlineLink = 'text-violet-300 underline underline-offset-4 hover:text-violet-200';

/** The empty state leads to the two places where work is made, not only names them. */
function EmptyLibrary() {
  const [before, mixer, between, mastering, after] = LIBRARY_TEXT.empty;
  return (
    <>
      {before}
      <Link to="/mixer" className={inlineLink}>
        {mixer}
      </Link>
      {between}
      <Link to="/mastering" className={inlineLink}>
        {mastering}
      </Link>
      {after}
    </>
  );
}

/** Typing settles before the server is asked. */
const useDebounced = (value: string, ms: number) => {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return settled;
};

const failed = (error: unknown, fallback: string) =>
  toast({ title: 'Error', description: userMessage(error, fallback), variant: 'destructive' });

/** Issue 30: the library of the signed-in user's work (route /library, signed-in only). */
export function LibraryPage() {
  usePageTitle('Library');
  const [search, setSearch] = useState('');
  const q = useDebounced(search, 250);
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: [...LIBRARY_QUERY_KEY, q], queryFn: () => fetchLibrary(q) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: LIBRARY_QUERY_KEY });

  const actions: ItemActions = {
    async rename(item, name) {
      try {
        await renameItem(apiKind(item), item.id, name);
        toast({ title: LIBRARY_TEXT.renamed, description: name.trim() });
        await refresh();
      } catch (error) {
        failed(error, 'Could not rename it');
        throw error;
      }
    },
    async remove(item) {
      if (!window.confirm(LIBRARY_TEXT.confirmDelete(item.name))) return;
      try {
        await deleteItem(apiKind(item), item.id);
        toast({ title: 'Deleted', description: LIBRARY_TEXT.deleted(item.name) });
        await refresh();
      } catch (error) {
        failed(error, 'Could not delete it');
      }
    },
    async redownload(master: LibraryMaster) {
      try {
        // The kept files, exactly as first handed over: no render and no spend (decision 226).
        for (const file of master.files) await saveFile(await fetchKeptFile(file.url), file.name);
        toast({ title: 'Download Started', description: master.files.map((f) => f.name).join(', ') });
      } catch (error) {
        failed(error, 'Could not download it again');
      }
    },
  };

  const items = list.data?.items ?? [];
  return (
    <div
      className="mx-auto max-w-4xl px-4 py-10"
      data-testid="library"
      data-state={list.isPending ? 'loading' : 'ready'}
    >
      <header className="grid gap-2">
        <h1 className="text-3xl font-bold text-zinc-50">{LIBRARY_TEXT.title}</h1>
        <p className="text-zinc-300">{LIBRARY_TEXT.intro}</p>
        {list.data ? (
          <p className="text-sm text-zinc-400" data-testid="library-usage">
            {formatBytes(list.data.usedBytes)} of {formatBytes(list.data.quotaBytes)} used
          </p>
        ) : null}
      </header>
      <div className="mt-6">
        <Input
          type="search"
          aria-label={LIBRARY_TEXT.search}
          placeholder={LIBRARY_TEXT.search}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
      </div>
      {list.isPending ? (
        <LoadingScreen />
      ) : list.isError ? (
        <p className="mt-6 text-red-300">{userMessage(list.error, 'Could not load your library')}</p>
      ) : items.length === 0 ? (
        <p className="mt-6 text-zinc-300" data-testid="library-empty">
          {q ? LIBRARY_TEXT.noMatch(q) : <EmptyLibrary />}
        </p>
      ) : (
        <ul className="mt-6 grid gap-3" aria-label="Your work">
          {items.map((item) => (
            <LibraryItemRow key={`${item.kind}-${item.id}`} item={item} actions={actions} />
          ))}
        </ul>
      )}
    </div>
  );
}
