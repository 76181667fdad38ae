import { Link } from 'react-router-dom';

/** Any path the site does not know. */
export function NotFound() {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-6 bg-sand px-6 text-center">
      <h1 className="font-serif text-4xl text-ink">Oops! Page not found</h1>
      <Link to="/" className="font-semibold text-ink underline underline-offset-4 hover:text-brass">
        Return to Home
      </Link>
    </main>
  );
}
