import { Link } from 'react-router';
import { buttonClasses } from '../components/ui/button';
import { Card } from '../components/ui/card';
import { usePageTitle } from '../lib/use-page-title';

export function NotFoundPage() {
  usePageTitle('Page not found');
  return (
    <div className="mx-auto flex max-w-xl items-center px-4 py-20">
      <Card className="w-full text-center" data-state="ready">
        <p aria-hidden="true" className="text-5xl font-bold text-violet-400">
          404
        </p>
        <h1 className="mt-4 text-2xl font-bold text-zinc-50">404 Page Not Found</h1>
        <p className="mt-2 text-zinc-300">Did you forget to add the page to the router?</p>
        <Link to="/" className={buttonClasses('primary', 'md', 'mt-6')}>
          Go to the home page
        </Link>
      </Card>
    </div>
  );
}
