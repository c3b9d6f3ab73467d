/**
 * The ZIP worker's protocol (issue 18: every version and format of a download in one archive). The files
 * are Blobs (cloned by reference, no copy of their bytes); the archive comes back as one Blob.
 */
export interface ZipEntry {
  name: string;
  blob: Blob;
}

export interface ZipApi {
  zip: {
    request: { entries: ZipEntry[] };
    response: Blob;
    /** Fraction of the input bytes written into the archive. */
    progress: number;
  };
}
