import { Link } from 'react-router';
import { buttonClasses } from './ui/button';

/** The prompt anonymous visitors see on the mixer and mastering screens (spec 2). */
export function LoggedOutBanner({ title, text }: { title: string; text?: string }) {
  return (
    <div className="mb-6 flex flex-col gap-3 rounded-xl border border-violet-500/40 bg-violet-950/60 p-4 sm:flex-row sm:items-center sm:justify-between">
      <div>
        <Link to="/auth" className="font-semibold text-violet-100 underline-offset-4 hover:underline">
          {title}
        </Link>
        {text ? <p className="mt-1 text-sm text-violet-200">{text}</p> : null}
      </div>
      <Link to="/auth" className={buttonClasses('primary', 'sm')}>
        Log In
      </Link>
    </div>
  );
}
