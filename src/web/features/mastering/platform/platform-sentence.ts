/**
 * "How it will play" in one plain sentence (issue 30, decision 253): which services turn the master down
 * or up, and whether its peaks leave the room they ask for. From the same rows the table shows.
 */
import { db } from '../common/audio-numbers';
import { listWords } from '../common/plain-sentences';
import type { PlatformPlayback } from '../engine/engine-api';

/** Under this the change is not worth naming (a tenth of what a listener can hear). */
const AUDIBLE_DB = 0.1;

const names = (rows: readonly PlatformPlayback[]): string => {
  const all = rows.map((r) => r.platform.name);
  return all.length > 3 ? `${all.slice(0, 2).join(', ')} and ${all.length - 2} more` : listWords(all);
};

const span = (rows: readonly PlatformPlayback[]): string => {
  const gains = rows.map((r) => Math.abs(r.gainDb));
  const lo = Math.min(...gains);
  const hi = Math.max(...gains);
  return hi - lo < 0.1 ? `${db(hi)} dB` : `${db(lo)} to ${db(hi)} dB`;
};

export const platformSentence = (rows: readonly PlatformPlayback[]): string => {
  const down = rows.filter((r) => r.gainDb <= -AUDIBLE_DB);
  const up = rows.filter((r) => r.gainDb >= AUDIBLE_DB);
  const parts: string[] = [];
  // The first clause names "your master", the next ones say "it".
  const it = () => (parts.length === 0 ? 'your master' : 'it');
  if (down.length === rows.length)
    parts.push(`Every service turns your master down (by ${span(down)}) to match the songs around it`);
  else if (up.length === rows.length) parts.push(`Every service turns your master up (by ${span(up)})`);
  else if (down.length === 0 && up.length === 0)
    parts.push('Every service plays your master at about the level it is');
  else {
    if (down.length > 0)
      parts.push(`${names(down)} turn${down.length === 1 ? 's' : ''} ${it()} down (by ${span(down)})`);
    if (up.length > 0)
      parts.push(`${names(up)} turn${up.length === 1 ? 's' : ''} ${it()} up (by ${span(up)})`);
    const asIs = rows.length - down.length - up.length;
    if (asIs > 0) parts.push(`${asIs === 1 ? 'one plays' : `${asIs} play`} ${it()} as it is`);
  }
  const tight = rows.filter((r) => r.headroomWarning);
  const peaks =
    tight.length === 0
      ? 'its peaks leave every service the room it asks for'
      : `its peaks are too close to clipping for ${names(tight)}, whose compressed copies may distort`;
  const said = listWords(parts);
  return `${said.charAt(0).toUpperCase()}${said.slice(1)}; ${peaks}.`;
};
