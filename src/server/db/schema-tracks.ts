/** Tables of the tracks module (see migrations/0001_tracks.sql). */
export {};
