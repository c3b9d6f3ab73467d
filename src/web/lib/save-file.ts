/** Hands a file to the browser as a download, through a temporary object URL and a clicked link. */
export const saveFile = (blob: Blob, name: string): void => {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
  // The browser has taken its own reference once the download starts; the URL can go a little later.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
};
