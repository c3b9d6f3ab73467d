import {
  MAX_TRACK_BYTES,
  STUDIO_UPLOAD_EXTENSIONS,
  STUDIO_UPLOAD_TYPES,
} from '../../../../shared/api/tracks';
import { MIXER_NOTICES, type Notice } from '../mixer-messages';

/** Spec 5: the allowed audio types. */
export const ALLOWED_AUDIO_TYPES = ['audio/wav', 'audio/mp3', 'audio/mpeg', 'audio/ogg'] as const;
/**
 * Other names browsers give the same formats (Firefox and Safari label WAV 'audio/x-wav' or 'audio/wave'):
 * refusing them would refuse the spec's own formats.
 */
const ALIASES = [
  'audio/x-wav',
  'audio/wave',
  'audio/vnd.wave',
  'audio/x-mpeg',
  'audio/x-mp3',
  'application/ogg',
];
/** When the browser gives no type at all, the name's extension decides. */
const EXTENSIONS = /\.(wav|wave|mp3|ogg|oga)$/i;

export const isAllowedAudio = (file: { type: string; name: string }): boolean => {
  const type = file.type.toLowerCase();
  if (type === '') return EXTENSIONS.test(file.name) || STUDIO_UPLOAD_EXTENSIONS.test(file.name);
  return (
    (ALLOWED_AUDIO_TYPES as readonly string[]).includes(type) ||
    ALIASES.includes(type) ||
    STUDIO_UPLOAD_TYPES.includes(type)
  );
};

/** The spec's type check, then its size check; null when the file may be processed. */
export const uploadProblem = (file: { type: string; name: string; size: number }): Notice | null => {
  if (!isAllowedAudio(file)) return MIXER_NOTICES.invalidType;
  if (file.size > MAX_TRACK_BYTES) return MIXER_NOTICES.tooLarge;
  return null;
};
