import { useMachine } from '@xstate/react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button, ButtonLink, Card, Eyebrow, Field } from '../components/ui/index.js';
import { post } from '../lib/api.js';
import { isSimpleEmail, hasText } from '#machines/protocol/common.js';
import { useAssessment } from '../features/assessment/launcher.js';
import { flowSlot, rememberEmail, rememberLeadSession } from '../lib/browser-storage.js';
import { MirrorComposer, MirrorMessages } from '../features/assessment/mirror-chat.js';
import { standaloneMirror } from '../features/standalone/mirror-machine.js';
import { FlowIdStore } from '../lib/flows/storage.js';

/**
 * `/mirror`: the Mirror chat demo: five exchanges, replies revealed
 * after 1.5 s (1 s for the fallback), then the way on to the assessment or to contact.
 */
export function MirrorPage() {
  const [snapshot, send] = useMachine(standaloneMirror);
  const { context } = snapshot;
  const [saving, setSaving] = useState(false);
  const log = useRef<HTMLDivElement>(null);
  const complete = snapshot.matches('complete');
  const pending = snapshot.matches('awaitingReply') || snapshot.matches('revealing');

  useEffect(() => {
    const list = log.current;
    if (list) list.scrollTop = list.scrollHeight;
  }, [context.messages.length, pending]);

  return (
    <>
      <title>Mirror Demo | Leadership Coaching</title>
      <section aria-labelledby="mirror-title" className="min-h-screen bg-sand px-5 pt-28 pb-20 sm:px-8 sm:pt-36">
        <div className="mx-auto flex max-w-3xl flex-col gap-8">
          <header className="flex flex-col gap-4">
            <Eyebrow>The Decision Mirror</Eyebrow>
            <div className="flex flex-wrap items-end justify-between gap-3">
              <h1 id="mirror-title" className="font-serif text-4xl text-balance text-ink sm:text-5xl">
                Mirror Demo
              </h1>
              <p
                className="rounded-full border border-ink/15 bg-white/70 px-4 py-1.5 text-sm font-semibold text-ink tabular-nums"
                aria-live="polite"
              >
                {complete ? 'Complete' : `${context.turn}/5 exchanges`}
              </p>
            </div>
            <p className="max-w-2xl text-lg leading-relaxed text-muted">
              Five short exchanges. The Mirror does not give advice: it asks the questions that show how you decide.
            </p>
          </header>

          <Card padding="md" className="gap-5">
            <div
              ref={log}
              role="log"
              aria-live="polite"
              aria-label="Conversation with the Mirror"
              // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scroll container needs a tab stop so the keyboard can scroll it (axe: scrollable-region-focusable)
              tabIndex={0}
              className="max-h-[55vh] min-h-64 overflow-y-auto rounded-2xl bg-paper p-4 sm:p-5"
            >
              <ol className="flex flex-col gap-3">
                <MirrorMessages messages={context.messages} pending={pending} assistantClassName="border border-line bg-white" />
              </ol>
            </div>

            {complete ? (
              <CompletePanel saving={saving} setSaving={setSaving} sessionId={context.sessionId} />
            ) : (
              <MirrorComposer
                visibleLabel
                canSend={snapshot.matches('chatting')}
                save={context.save}
                onSaveChange={(save) => send({ type: 'SET_SAVE', save })}
                onSend={(text) => {
                  send({ type: 'SEND', text });
                  return true;
                }}
              />
            )}
          </Card>
        </div>
      </section>
    </>
  );
}

function CompletePanel({ saving, setSaving, sessionId }: { saving: boolean; setSaving: (on: boolean) => void; sessionId: string | null }) {
  const assessment = useAssessment();
  const [capturing, setCapturing] = useState(false);
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<{ email?: string; name?: string; form?: string }>({});
  const formHeading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (capturing) formHeading.current?.focus();
  }, [capturing]);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    const found: typeof errors = {};
    if (!isSimpleEmail(email)) found.email = 'Please enter a valid email address';
    if (!hasText(name)) found.name = 'Please enter your name';
    setErrors(found);
    if (found.email || found.name) return;
    setSaving(true);
    try {
      // the capture step of this browser's assessment: the modal opens on that flow, at its intro
      // the saved conversation goes with the lead, so the coach reads it with the assessment
      const lead = await post<{ leadId: string; flowId: string; email: string; name: string }>('/api/leads', {
        email: email.trim(),
        name: name.trim(),
        ...(sessionId ? { mirrorSessionId: sessionId } : {}),
      });
      new FlowIdStore().set(flowSlot('assessment'), lead.flowId);
      rememberEmail(lead.email);
      rememberLeadSession({
        source: 'direct',
        leadToken: null,
        leadId: lead.leadId,
        email: lead.email,
        name: lead.name,
        assessmentCompleted: false,
        surveyCompleted: false,
        mirrorSessionId: sessionId,
        paymentIntentId: null,
      });
      setCapturing(false);
      assessment.open();
    } catch (error) {
      setErrors({ form: error instanceof Error ? error.message : 'Something went wrong. Please try again.' });
    } finally {
      setSaving(false);
    }
  };

  return (
    <div className="flex flex-col gap-5 rounded-2xl border border-brass/60 bg-sand p-5 sm:p-6">
      <p className="font-serif text-2xl text-ink" role="status">
        Demo complete! Ready to continue your journey?
      </p>
      <div className="flex flex-col gap-3 sm:flex-row">
        <Button size="lg" onClick={() => setCapturing(true)} aria-expanded={capturing} aria-controls="mirror-save">
          Take Leadership Assessment
        </Button>
        <ButtonLink to="/contact" variant="secondary" size="lg">
          Contact Us
        </ButtonLink>
      </div>
      {capturing && (
        <form
          method="post"
          id="mirror-save"
          // save() shows its own failures in the form
          onSubmit={(event) => void save(event)}
          noValidate
          aria-labelledby="mirror-save-title"
          className="flex flex-col gap-5 rounded-2xl border border-line bg-white p-5 sm:p-6"
        >
          <div className="flex flex-col gap-2">
            <h2 id="mirror-save-title" ref={formHeading} tabIndex={-1} className="font-serif text-2xl text-ink focus:outline-none">
              Save Your Mirror Session
            </h2>
            <p className="leading-relaxed text-muted">Leave your details and we will keep this conversation with your assessment.</p>
          </div>
          {errors.form && (
            <p role="alert" className="rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
              {errors.form}
            </p>
          )}
          <div className="grid gap-5 sm:grid-cols-2">
            <Field
              label="Email"
              type="email"
              autoComplete="email"
              value={email}
              error={errors.email ?? null}
              disabled={saving}
              onChange={(e) => {
                setEmail(e.target.value);
                if (errors.email) setErrors({ ...errors, email: undefined });
              }}
            />
            <Field
              label="Name"
              autoComplete="name"
              value={name}
              error={errors.name ?? null}
              disabled={saving}
              onChange={(e) => {
                setName(e.target.value);
                if (errors.name) setErrors({ ...errors, name: undefined });
              }}
            />
          </div>
          <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
            <Button type="submit" loading={saving} loadingText="Saving…">
              Save and continue
            </Button>
            <Button
              variant="ghost"
              disabled={saving}
              onClick={() => {
                setCapturing(false);
                assessment.open();
              }}
            >
              Continue without saving
            </Button>
          </div>
        </form>
      )}
    </div>
  );
}
