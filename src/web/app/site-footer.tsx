export function SiteFooter() {
  return (
    <footer className="border-t border-zinc-800 bg-zinc-950">
      <div className="mx-auto flex max-w-7xl flex-col gap-1 px-4 py-6 text-sm text-zinc-400 sm:flex-row sm:justify-between">
        <p>© 2025 Master Your Mix. All rights reserved.</p>
        <p>Professional Audio Mixing and Mastering Platform</p>
      </div>
    </footer>
  );
}
