import jsQR from 'jsqr';
import { describe, expect, it } from 'vitest';
import { QR_QUIET_ZONE, qrSvgPath } from './qr-path';

/** Paints the path's rectangles (the only commands qrSvgPath writes) into RGBA pixels, as a browser would. */
function rasterise(text: string, scale = 4) {
  const { size, path } = qrSvgPath(text);
  const side = (size + 2 * QR_QUIET_ZONE) * scale;
  const pixels = new Uint8ClampedArray(side * side * 4).fill(255);
  const commands = [...path.matchAll(/M(\d+) (\d+)h(\d+)v1h-(\d+)z/g)];
  expect(commands.map((m) => m[0]).join('')).toBe(path);
  for (const [, x0, y0, run] of commands) {
    for (let y = 0; y < scale; y++) {
      for (let x = 0; x < Number(run) * scale; x++) {
        const px = (Number(x0) + QR_QUIET_ZONE) * scale + x;
        const py = (Number(y0) + QR_QUIET_ZONE) * scale + y;
        pixels.fill(0, (py * side + px) * 4, (py * side + px) * 4 + 3);
      }
    }
  }
  return { pixels, side };
}

describe('enrolment QR code', () => {
  it.each([
    'otpauth://totp/Master%20Your%20Mix%3Aboss%40example.test?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Master%20Your%20Mix&algorithm=SHA1&digits=6&period=30',
    `otpauth://totp/Master%20Your%20Mix%3A${'a'.repeat(200)}%40example.test?secret=ABCDEFGHIJKLMNOPQRSTUVWXYZ234567&issuer=Master%20Your%20Mix`,
  ])('decodes back to the otpauth:// URI it was drawn from (%#)', (uri) => {
    const { pixels, side } = rasterise(uri);
    const decoded = jsQR(pixels, side, side);
    expect(decoded?.data).toBe(uri);
  });

  it('draws a different code for a different secret', () => {
    expect(qrSvgPath('otpauth://totp/a?secret=AAAA').path).not.toBe(
      qrSvgPath('otpauth://totp/a?secret=BBBB').path,
    );
  });
});
