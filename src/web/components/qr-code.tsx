import { useMemo } from 'react';
import { QR_QUIET_ZONE, qrSvgPath } from '../lib/qr-path';

/** A QR code drawn as SVG in the page: dark modules on white with its quiet zone, crisp at any size. */
export function QrCode({ value, label, className }: { value: string; label: string; className?: string }) {
  const { size, path } = useMemo(() => qrSvgPath(value), [value]);
  const side = size + 2 * QR_QUIET_ZONE;
  return (
    <svg
      role="img"
      aria-label={label}
      viewBox={`${-QR_QUIET_ZONE} ${-QR_QUIET_ZONE} ${side} ${side}`}
      shapeRendering="crispEdges"
      className={className}
      data-testid="totp-qr"
    >
      <rect x={-QR_QUIET_ZONE} y={-QR_QUIET_ZONE} width={side} height={side} fill="#ffffff" />
      <path d={path} fill="#000000" />
    </svg>
  );
}
