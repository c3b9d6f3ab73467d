const paths: Record<string, string> = {
  mixer: 'M4 21v-7M4 10V3M12 21v-9M12 8V3M20 21v-5M20 12V3M1 14h6M9 8h6M17 16h6',
  spark: 'M12 3l1.9 5.8L20 11l-6.1 2.2L12 19l-1.9-5.8L4 11l6.1-2.2L12 3z',
  bolt: 'M13 2L3 14h9l-1 8 10-12h-9l1-8z',
  timeline: 'M3 6h8M13 6h8M3 12h4M9 12h12M3 18h12M17 18h4',
  download: 'M12 3v12M7 10l5 5 5-5M4 21h16',
  sliders: 'M4 6h10M18 6h2M4 12h4M12 12h8M4 18h12M20 18h0M14 4v4M8 10v4M16 16v4',
  check: 'M5 12l5 5L20 7',
  crown: 'M3 8l4 4 5-7 5 7 4-4-2 11H5L3 8z',
};

/** Line icons drawn inline (no icon library dependency); decorative, so hidden from assistive tech. */
export function FeatureIcon({
  name,
  className = 'size-6',
}: {
  name: keyof typeof paths | string;
  className?: string;
}) {
  return (
    <svg
      viewBox="0 0 24 24"
      className={className}
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <path d={paths[name] ?? paths.check} />
    </svg>
  );
}
