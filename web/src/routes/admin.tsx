import { Navigate } from 'react-router-dom';
import { Card, Section } from '../components/ui';
import { useSession } from '../lib/session';

/** `/admin/*` until the admin area lands: who is signed in; signed-out visitors go to /auth (spec section 6). */
export function AdminPlaceholder() {
  const session = useSession();
  if (session.status === 'signed-out') return <Navigate to="/auth" replace />;
  return (
    <>
      <title>Admin | Leadership Coaching</title>
      <Section tone="sand" spacing="hero" level={1} eyebrow="Admin" title="Dashboard">
        <Card padding="lg" className="max-w-xl" aria-busy={session.status === 'unknown'}>
          {session.user ? (
            <p className="text-lg text-ink">
              Signed in as <strong className="font-semibold">{session.user.email}</strong>
            </p>
          ) : (
            <p className="text-lg text-muted">Checking your session...</p>
          )}
          <p className="mt-3 leading-relaxed text-muted">Leads, messages, integrations and the team-chat monitor will appear here.</p>
        </Card>
      </Section>
    </>
  );
}
