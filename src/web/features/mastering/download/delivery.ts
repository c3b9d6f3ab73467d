import type { MixVersion } from '../../../../shared/mix-versions';

/** Issue 30: a ZIP only for more than one version; one version arrives as one file per format. */
export const deliversZip = (versionCount: number): boolean => versionCount > 1;

/**
 * The version part of a file's name: none for Main alone (it is the master, named as spec 8 names it:
 * 'mastered-{preset}-{timestamp}.wav' and '.mp3'), the version's own name otherwise, so files of different
 * versions never share a name.
 */
export const fileVersionName = (version: MixVersion | null, versionCount: number): string | undefined =>
  version === null || (versionCount === 1 && version === 'main') ? undefined : version;
