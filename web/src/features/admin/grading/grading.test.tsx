// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { DEFAULT_GRADING_RULES, type GradingRules } from '#machines/grading/rules.js';
import type { applyResultSchema, gradingViewSchema, regradeReportSchema } from '#machines/protocol/admin/grading.js';
import { formatDateTime } from '../api.js';
import { GradingScreen } from './grading.js';
import { CSRF, installAdminTestKit, mockAdminApi, on, renderScreen, uuid, type SeenRequest } from '../test-kit.js';

installAdminTestKit();

const PROPOSAL: GradingRules = { ...DEFAULT_GRADING_RULES, thresholds: { bookCall: 65, homework: 50 } };

const builtIn: z.input<typeof gradingViewSchema> = {
  inForce: { version: 'grading-1.0.0', rules: DEFAULT_GRADING_RULES, builtIn: true, appliedAt: null },
  history: [],
  undoTo: null,
};
const application = {
  id: 7,
  version: 'grading-2',
  appliedAt: '2026-03-02T09:30:00.000Z',
  appliedBy: 'coach@example.com',
  note: 'Spring cohort',
  scope: { source: 'spring', includeTestLeads: false },
  regraded: 3,
  moved: 1,
  undoOf: null,
};
/** Its undo: the same scope, no note of its own. */
const undoApplication = { ...application, id: 8, version: 'grading-1.0.0', note: null, undoOf: 7 };
const applied: z.input<typeof gradingViewSchema> = {
  inForce: { version: 'grading-2', rules: PROPOSAL, builtIn: false, appliedAt: application.appliedAt },
  history: [application],
  undoTo: 'grading-1.0.0',
};
const report: z.input<typeof regradeReportSchema> = {
  version: 'grading-2',
  considered: 4,
  skipped: 1,
  unchanged: 2,
  moved: 1,
  moves: [
    { from: 'book_call', to: 'book_call', leads: 1 },
    { from: 'homework', to: 'book_call', leads: 1 },
    { from: 'nurture', to: 'nurture', leads: 1 },
  ],
  leads: [
    { leadId: uuid(5), name: 'Avery Stone', email: 'avery@example.com', from: 'homework', to: 'book_call', fromTotal: 67, toTotal: 67 },
  ],
  truncated: false,
};
const applyResult: z.input<typeof applyResultSchema> = { ...report, application };

const posts = (seen: SeenRequest[]) => seen.filter((request) => request.method === 'POST');

async function openScreen(...responders: Parameters<typeof mockAdminApi>) {
  const seen = mockAdminApi(...responders);
  renderScreen(<GradingScreen />, '/admin/grading');
  await screen.findByRole('heading', { name: 'Rules in force' });
  return seen;
}

async function setNumber(label: string, value: string) {
  const input = screen.getByLabelText(label);
  await userEvent.clear(input);
  if (value) await userEvent.type(input, value);
}

describe('Grading rules screen', () => {
  it('shows the rules in force in plain words, with nothing to undo', async () => {
    await openScreen(on('GET', '/api/admin/grading', { body: builtIn }));

    const rules = screen.getByRole('list', { name: 'Rules in force' });
    expect(within(rules).getByText('Book call from a total of 70')).toBeTruthy();
    expect(within(rules).getByText('The diagnostic weighs 35% of the total')).toBeTruthy();
    expect(within(rules).getByText('The Mirror weighs 30% of the total')).toBeTruthy();
    expect(within(rules).getByText('Book call needs the investment ready (q1)')).toBeTruthy();
    expect(screen.getByTestId('version-in-force').textContent).toBe('grading-1.0.0');
    expect(screen.getByText(/In force from the start/)).toBeTruthy();
    // the form starts from them, the weights in percent
    expect(screen.getByLabelText<HTMLInputElement>('Diagnostic (%)').value).toBe('35');
    expect(screen.getByLabelText<HTMLInputElement>('Book call from a total of').value).toBe('70');
    expect(screen.getByRole('switch', { name: 'Book call needs the investment ready (q1)' }).getAttribute('aria-checked')).toBe('true');
    expect(screen.getByText(/No rules applied yet/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Undo last change' })).toBeNull();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Apply these rules' }).disabled).toBe(true);
  });

  it('names a bad number next to its input and sends nothing', async () => {
    const seen = await openScreen(on('GET', '/api/admin/grading', { body: builtIn }));

    await setNumber('Book call from a total of', '150');
    await setNumber('Diagnostic (%)', '40');
    await userEvent.click(screen.getByRole('button', { name: 'Try on past leads' }));

    const bookCall = screen.getByLabelText('Book call from a total of');
    expect(bookCall.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(bookCall.getAttribute('aria-describedby')!)!.textContent).toBe(
      'The book_call threshold must be between 0 and 100',
    );
    const diagnostic = screen.getByLabelText('Diagnostic (%)');
    expect(diagnostic.getAttribute('aria-describedby')).toBe('grading-partWeights-error');
    expect(screen.getByText('The three part weights must add up to 1')).toBeTruthy();
    expect(document.activeElement).toBe(diagnostic);

    await setNumber('Survey (%)', '');
    await userEvent.click(screen.getByRole('button', { name: 'Try on past leads' }));
    expect(screen.getByText('The survey weight must be a number')).toBeTruthy();
    expect(posts(seen)).toEqual([]);
  });

  it('tries the rules on past leads: the counts, the tier matrix and the movers', async () => {
    const seen = await openScreen(
      on('GET', '/api/admin/grading', { body: builtIn }),
      on('POST', '/api/admin/grading/dry-run', { body: report }),
    );

    await setNumber('Book call from a total of', '65');
    await userEvent.selectOptions(screen.getByLabelText('Current tier'), 'homework');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Include test leads (tagged test)' }));
    await userEvent.click(screen.getByRole('button', { name: 'Try on past leads' }));

    const heading = await screen.findByRole('heading', { name: 'What these rules would change' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    const [dryRun] = posts(seen);
    expect(dryRun!.url).toBe('/api/admin/grading/dry-run');
    expect(dryRun!.headers['x-csrf-token']).toBe(CSRF);
    // the weights go as the schema's fractions
    expect(dryRun!.body).toEqual({ rules: PROPOSAL, scope: { tier: 'homework', includeTestLeads: true } });

    expect(screen.getByText('Graded before answers were kept, so they keep their result.')).toBeTruthy();
    const matrix = screen.getByTestId('moves-matrix');
    expect(within(matrix).getByRole('columnheader', { name: 'Would be Book call' })).toBeTruthy();
    expect(matrix.querySelector('[data-move="homework-book_call"]')!.textContent).toBe('1');
    expect(matrix.querySelector('[data-move="homework-homework"]')!.textContent).toBe('0');
    const movers = screen.getByRole('table', { name: 'Leads who would change tier' });
    expect(within(movers).getByRole('link', { name: 'Avery Stone' }).getAttribute('href')).toBe(`/admin/leads/${uuid(5)}`);
    expect(within(movers).getByText('avery@example.com')).toBeTruthy();
    expect(within(movers).getByText('67 → 67')).toBeTruthy();
  });

  it('enables Apply only after a dry run of the rules as they are, and disables it again after an edit', async () => {
    await openScreen(on('GET', '/api/admin/grading', { body: builtIn }), on('POST', '/api/admin/grading/dry-run', { body: report }));
    const apply = () => screen.getByRole<HTMLButtonElement>('button', { name: 'Apply these rules' });

    await setNumber('Book call from a total of', '65');
    expect(apply().disabled).toBe(true);
    expect(screen.getByText(/Try these rules on past leads first/)).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Try on past leads' }));
    await screen.findByRole('heading', { name: 'What these rules would change' });
    expect(apply().disabled).toBe(false);

    await setNumber('Points off for seeking validation rather than challenge (q4)', '10');
    expect(apply().disabled).toBe(true);
    expect(screen.getByText(/You changed the rules since this try/)).toBeTruthy();

    // back to the numbers that were tried: the try holds again
    await setNumber('Points off for seeking validation rather than challenge (q4)', '15');
    expect(apply().disabled).toBe(false);
    await userEvent.click(screen.getByRole('switch', { name: 'Book call needs them able to start within 30 days (q2)' }));
    expect(apply().disabled).toBe(true);
  });

  it('applies with a note and the CSRF token, then shows the rules now in force; Undo restores the version it names', async () => {
    let view = builtIn;
    const seen = await openScreen(
      on('GET', '/api/admin/grading', () => ({ body: view })),
      on('POST', '/api/admin/grading/dry-run', { body: report }),
      on('POST', '/api/admin/grading/apply', () => ((view = applied), { body: applyResult })),
      on(
        'POST',
        '/api/admin/grading/undo',
        () => (
          (view = {
            ...builtIn,
            history: [undoApplication, application],
            undoTo: 'grading-2',
          }),
          {
            body: { ...applyResult, version: 'grading-1.0.0', application: undoApplication },
          }
        ),
      ),
    );

    await setNumber('Book call from a total of', '65');
    await userEvent.click(screen.getByRole('button', { name: 'Try on past leads' }));
    await screen.findByRole('heading', { name: 'What these rules would change' });
    await userEvent.click(screen.getByRole('button', { name: 'Apply these rules' }));
    const dialog = await screen.findByRole('dialog', { name: 'Apply these rules?' });
    expect(within(dialog).getByText(/Their old results are kept/)).toBeTruthy();
    await userEvent.type(within(dialog).getByLabelText(/Note for the history/), 'Spring cohort');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Apply these rules' }));

    expect(await screen.findByText('grading-2 is in force: 3 leads re-graded, 1 changed tier.')).toBeTruthy();
    const applyCall = posts(seen).find((request) => request.url === '/api/admin/grading/apply')!;
    expect(applyCall.headers['x-csrf-token']).toBe(CSRF);
    expect(applyCall.body).toEqual({ rules: PROPOSAL, scope: { includeTestLeads: false }, note: 'Spring cohort' });
    await waitFor(() => expect(screen.getByTestId('version-in-force').textContent).toBe('grading-2'));
    expect(within(screen.getByRole('list', { name: 'Rules in force' })).getByText('Book call from a total of 65')).toBeTruthy();
    expect(screen.getByText(/Applied .* by coach@example.com/)).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Rules in force' })));
    const history = screen.getByRole('list', { name: 'Rules applied, latest first' });
    expect(within(history).getByText('Note: Spring cohort')).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Undo last change' }));
    const undoDialog = await screen.findByRole('dialog', { name: 'Undo the last change?' });
    expect(within(undoDialog).getByText('grading-1.0.0')).toBeTruthy();
    expect(undoDialog.textContent).toContain(
      'The 3 leads application 7 re-graded (any tier, source spring, signed up any time, test leads left out) get a new result under them',
    );
    await userEvent.click(within(undoDialog).getByRole('button', { name: 'Restore grading-1.0.0' }));

    expect(await screen.findByText('grading-1.0.0 is back in force: 3 leads re-graded, 1 changed tier.')).toBeTruthy();
    const undoCall = posts(seen).find((request) => request.url === '/api/admin/grading/undo')!;
    expect(undoCall.headers['x-csrf-token']).toBe(CSRF);
    await waitFor(() => expect(screen.getByTestId('version-in-force').textContent).toBe('grading-1.0.0'));
    const entries = within(screen.getByRole('list', { name: 'Rules applied, latest first' })).getAllByRole('listitem');
    expect(entries[0]!.textContent).toContain('Undo of application 7');
  });

  it('shows beside Apply the scope and count of the try, holds Apply while the scope on screen differs, and applies to that scope', async () => {
    const seen = await openScreen(
      on('GET', '/api/admin/grading', { body: builtIn }),
      on('POST', '/api/admin/grading/dry-run', { body: report }),
      on('POST', '/api/admin/grading/apply', { body: applyResult }),
    );
    const apply = () => screen.getByRole<HTMLButtonElement>('button', { name: 'Apply these rules' });
    const hint = () => document.getElementById('grading-apply-hint')!.textContent;

    await setNumber('Book call from a total of', '65');
    await userEvent.type(screen.getByLabelText(/Source/), 'spring');
    await userEvent.type(screen.getByLabelText(/Signed up from/), '2026-03-01');
    await userEvent.click(screen.getByRole('button', { name: 'Try on past leads' }));
    await screen.findByRole('heading', { name: 'What these rules would change' });
    const scopeInWords = 'any tier, source spring, signed up from Mar 1, 2026, test leads left out';
    expect(screen.getByText(`Tried on leads: ${scopeInWords}. Nothing was changed.`)).toBeTruthy();
    expect(hint()).toBe(
      `Applies to the 4 leads this try considered: ${scopeInWords}. Leads outside it keep their results; new assessments are graded under these rules.`,
    );
    expect(apply().getAttribute('aria-describedby')).toBe('grading-apply-hint');

    // another scope on screen than the one tried: no Apply until it is tried
    await userEvent.click(screen.getByRole('checkbox', { name: 'Include test leads (tagged test)' }));
    expect(apply().disabled).toBe(true);
    expect(hint()).toBe('You changed which leads to try them on since the last try: try again before applying.');
    expect(screen.getByText(/You changed which leads to try them on since this try/)).toBeTruthy();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Include test leads (tagged test)' }));
    expect(apply().disabled).toBe(false);

    await userEvent.click(apply());
    const dialog = await screen.findByRole('dialog', { name: 'Apply these rules?' });
    expect(dialog.textContent).toContain(`To the 4 leads the try considered: ${scopeInWords}.`);
    expect(dialog.textContent).toContain(
      'New results under these rules, the tier following: 3 leads with stored answers, 1 of them changing tier. Left as they are: 1 lead graded before answers were kept.',
    );
    expect(dialog.textContent).toContain('Leads outside this scope keep the results they have.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Apply these rules' }));
    await screen.findByText('grading-2 is in force: 3 leads re-graded, 1 changed tier.');
    const applyCall = posts(seen).find((request) => request.url === '/api/admin/grading/apply')!;
    expect(applyCall.body).toEqual({ rules: PROPOSAL, scope: { source: 'spring', from: '2026-03-01', includeTestLeads: false } });
  });

  it('refuses a scope whose last day is before its first, beside the field, and sends nothing', async () => {
    const seen = await openScreen(on('GET', '/api/admin/grading', { body: builtIn }));
    await setNumber('Book call from a total of', '65');
    await userEvent.type(screen.getByLabelText(/Signed up from/), '2026-03-01');
    await userEvent.type(screen.getByLabelText(/Signed up until/), '2026-02-01');
    await userEvent.click(screen.getByRole('button', { name: 'Try on past leads' }));

    const until = screen.getByLabelText(/Signed up until/);
    expect(until.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('to must not be before from')).toBeTruthy();
    expect(document.activeElement).toBe(until);
    expect(posts(seen)).toEqual([]);
  });

  it('reads each application in the history as one entry, an undo saying "Undo of application N" once', async () => {
    const older = {
      ...application,
      id: 6,
      note: 'Try it on the workshop leads',
      scope: { tier: 'homework', source: 'workshop', from: '2026-01-01', to: '2026-01-31', includeTestLeads: true },
      regraded: 1,
      moved: 0,
    };
    const history = [undoApplication, application, older];
    await openScreen(on('GET', '/api/admin/grading', { body: { ...builtIn, history, undoTo: 'grading-2' } }));

    const entries = within(screen.getByRole('list', { name: 'Rules applied, latest first' })).getAllByRole('listitem');
    const when = formatDateTime(new Date(application.appliedAt));
    expect(entries.map((entry) => entry.textContent)).toEqual([
      `#8 grading-1.0.0 put back in force (Undo of application 7) by coach@example.com, ${when}.` +
        'Re-graded 3 leads, 1 changed tier. Leads: any tier, source spring, signed up any time, test leads left out.',
      `#7 grading-2 put in force by coach@example.com, ${when}.` +
        'Re-graded 3 leads, 1 changed tier. Leads: any tier, source spring, signed up any time, test leads left out.' +
        'Note: Spring cohort',
      `#6 grading-2 put in force by coach@example.com, ${when}.` +
        'Re-graded 1 lead, 0 changed tier. Leads: now Homework, source workshop, signed up Jan 1, 2026 to Jan 31, 2026, test leads included.' +
        'Note: Try it on the workshop leads',
    ]);
    expect(entries[0]!.textContent.match(/Undo of/g)).toHaveLength(1);
  });

  it('shows the server message when there is nothing to undo (409)', async () => {
    await openScreen(
      on('GET', '/api/admin/grading', { body: applied }),
      on('POST', '/api/admin/grading/undo', {
        status: 409,
        body: { statusCode: 409, error: 'Conflict', message: 'There is nothing to undo.' },
      }),
    );

    await userEvent.click(screen.getByRole('button', { name: 'Undo last change' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Restore grading-1.0.0' }));

    expect(await screen.findByText('There is nothing to undo.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('puts the fields the server refuses next to their inputs', async () => {
    await openScreen(
      on('GET', '/api/admin/grading', { body: builtIn }),
      on('POST', '/api/admin/grading/dry-run', {
        status: 400,
        body: {
          statusCode: 400,
          error: 'Bad Request',
          message: 'Invalid rules.modifiers.delayCap, scope.source',
          fields: {
            'rules.modifiers.delayCap': 'The delay cap is refused',
            'scope.source': 'source must be a lead source such as website',
          },
        },
      }),
    );

    await setNumber('Book call from a total of', '65');
    await userEvent.type(screen.getByLabelText(/Source/), 'web');
    await userEvent.click(screen.getByRole('button', { name: 'Try on past leads' }));

    expect(await screen.findByText('The delay cap is refused')).toBeTruthy();
    expect(screen.getByLabelText(/Highest total when/).getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText(/Source/).getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Some fields need a change')).toBeTruthy();
  });

  it('lists the problems of an invalid rules file, and a valid one fills the form', async () => {
    await openScreen(on('GET', '/api/admin/grading', { body: builtIn }));
    const upload = screen.getByLabelText<HTMLInputElement>('Upload a rules file');
    const bad = { ...DEFAULT_GRADING_RULES, thresholds: { bookCall: 'high', homework: 50 }, extra: true };
    fireEvent.change(upload, { target: { files: [new File([JSON.stringify(bad)], 'bad.json', { type: 'application/json' })] } });

    const alert = (await screen.findByText('bad.json cannot be used:')).closest<HTMLElement>('[role="alert"]')!;
    expect(within(alert).getByText('thresholds.bookCall: The book_call threshold must be a number')).toBeTruthy();
    expect(within(alert).getByText(/Unrecognized key/)).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>('Book call from a total of').value).toBe('70');

    const good = { ...PROPOSAL, partWeights: { diagnostic: 0.4, survey: 0.3, mirror: 0.3 } };
    fireEvent.change(upload, { target: { files: [new File([JSON.stringify(good)], 'spring.json', { type: 'application/json' })] } });

    expect(await screen.findByText('spring.json filled the form.')).toBeTruthy();
    expect(screen.queryByText(/cannot be used/)).toBeNull();
    expect(screen.getByLabelText<HTMLInputElement>('Book call from a total of').value).toBe('65');
    expect(screen.getByLabelText<HTMLInputElement>('Diagnostic (%)').value).toBe('40');
    const download = screen.getByRole('link', { name: 'Download these rules' });
    expect(download.getAttribute('download')).toBe('grading-rules-proposed.json');
    expect(JSON.parse(decodeURIComponent(download.getAttribute('href')!.split(',').slice(1).join(',')))).toEqual(good);
  });

  it('shows the error state with a retry when the rules cannot be read', async () => {
    let fail = true;
    mockAdminApi(on('GET', '/api/admin/grading', () => (fail ? { status: 500, body: { message: 'down' } } : { body: builtIn })));
    renderScreen(<GradingScreen />, '/admin/grading');

    const error = await screen.findByRole('group', { name: 'Error' });
    fail = false;
    await userEvent.click(within(error).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Rules in force' })).toBeTruthy();
  });
});
