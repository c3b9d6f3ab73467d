import { Link } from 'react-router';
import { Card, CardDescription, CardTitle } from '../../../components/ui/card';
import type { Access } from '../use-mastering';
import { AlbumAnalysisTable } from './album-analysis-table';
import { AlbumDetails } from './album-details';
import { AlbumDownloadCard } from './album-download-card';
import { AlbumMasterCard } from './album-master-card';
import { canMakeAlbum } from './album-rules';
import { AlbumSequenceCard } from './album-sequence-card';
import { ALBUM_TEXT } from './album-texts';
import { AlbumTracksCard } from './album-tracks-card';
import { AlbumContext, useCreateAlbumStore } from './use-album';

/** Issue 31: the album on the mastering page; Pro and Unlimited, locked with the plan named otherwise. */
export function AlbumView({ access }: { access: Access }) {
  if (!canMakeAlbum(access.user)) return <AlbumLocked />;
  return <AlbumScreen access={access} />;
}

function AlbumLocked() {
  return (
    <Card data-testid="album-locked" className="p-4 lg:p-6">
      <CardTitle className="flex items-center gap-2">
        {ALBUM_TEXT.title}
        <span className="rounded-full border border-amber-500/50 px-2 py-0.5 text-xs font-normal text-amber-200">
          <span aria-hidden="true">🔒 </span>Pro plan
        </span>
      </CardTitle>
      <CardDescription className="mt-2">{ALBUM_TEXT.intro}</CardDescription>
      <p className="mt-3 text-sm text-zinc-200">
        {ALBUM_TEXT.locked}{' '}
        <Link to="/pricing" className="text-violet-300 underline underline-offset-4">
          {ALBUM_TEXT.lockedLink}
        </Link>
      </p>
    </Card>
  );
}

function AlbumScreen({ access }: { access: Access }) {
  const store = useCreateAlbumStore(access);
  return (
    <AlbumContext.Provider value={store}>
      <div data-testid="album" className="grid grid-cols-[minmax(0,1fr)] gap-4 lg:gap-6">
        <AlbumDetails />
        <AlbumTracksCard />
        <AlbumAnalysisTable />
        <AlbumMasterCard access={access} />
        <AlbumSequenceCard />
        <AlbumDownloadCard access={access} />
      </div>
    </AlbumContext.Provider>
  );
}
