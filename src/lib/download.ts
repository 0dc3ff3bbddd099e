/** Hands a file made on the device to the browser as a download. */
export function downloadFile(content: Uint8Array | string, fileName: string, type: string): void {
  const blob = new Blob([content as BlobPart], { type });
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  anchor.rel = 'noopener';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  // Some browsers read the blob after click() returns; release it on the next turn.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
