import qrcode from 'qrcode-generator';

/** Modules of white margin around the code: the quiet zone QR readers need (ISO/IEC 18004). */
export const QR_QUIET_ZONE = 4;

/**
 * The QR code of `text` as one SVG path in module units (each dark run of a row is one rectangle), with
 * its side in modules. Built here from the library's matrix, so no image or service is involved.
 */
export function qrSvgPath(text: string): { size: number; path: string } {
  const qr = qrcode(0, 'M');
  qr.addData(text, 'Byte');
  qr.make();
  const size = qr.getModuleCount();
  let path = '';
  for (let y = 0; y < size; y++) {
    let x = 0;
    while (x < size) {
      if (!qr.isDark(y, x)) {
        x++;
        continue;
      }
      const start = x;
      while (x < size && qr.isDark(y, x)) x++;
      path += `M${start} ${y}h${x - start}v1h-${x - start}z`;
    }
  }
  return { size, path };
}
