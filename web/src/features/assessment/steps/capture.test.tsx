// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TEST_LEAD_NO_EMAIL } from '#machines/assessment-flow/assessment-flow.copy.js';
import { CaptureStep } from './capture.js';

afterEach(cleanup);

function renderCapture(props: Partial<Parameters<typeof CaptureStep>[0]> = {}) {
  const onSubmit = vi.fn();
  render(<CaptureStep mode="assessment" testing={false} saving={false} notice={null} defaultEmail="" onSubmit={onSubmit} {...props} />);
  return onSubmit;
}

describe('CaptureStep', () => {
  it('promises the results by email, except in testing mode, where it says a test lead gets none', () => {
    renderCapture();
    expect(screen.getByText(/We will send your results to this address/)).toBeTruthy();
    expect(screen.queryByTestId('test-lead-note')).toBeNull();
    cleanup();
    renderCapture({ testing: true });
    expect(screen.queryByText(/We will send your results/)).toBeNull();
    expect(screen.getByTestId('test-lead-note').textContent).toBe(TEST_LEAD_NO_EMAIL);
  });

  it('keeps the start button disabled until both name and email have text', async () => {
    const user = userEvent.setup();
    const onSubmit = renderCapture();
    const start = screen.getByRole<HTMLButtonElement>('button', { name: 'Start My Assessment' });
    expect(start.disabled).toBe(true);

    await user.type(screen.getByLabelText('Name'), 'Ada Lovelace');
    expect(start.disabled).toBe(true);
    await user.type(screen.getByLabelText('Email'), '   ');
    expect(start.disabled).toBe(true);

    await user.clear(screen.getByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    expect(start.disabled).toBe(false);
    await user.click(start);
    expect(onSubmit).toHaveBeenCalledExactlyOnceWith({ name: 'Ada Lovelace', email: 'ada@example.com' });
  });

  it('starts from the email this browser remembered', () => {
    renderCapture({ defaultEmail: 'known@example.com' });
    expect(screen.getByLabelText<HTMLInputElement>('Email').value).toBe('known@example.com');
  });

  it('shows the machine notice and does not submit again while saving', async () => {
    const user = userEvent.setup();
    const onSubmit = renderCapture({
      saving: true,
      defaultEmail: 'ada@example.com',
      notice: { title: 'Could not save', description: 'Please try again.' },
    });
    expect(screen.getByRole('alert').textContent).toContain('Please try again.');
    expect(screen.getByLabelText<HTMLInputElement>('Name').disabled).toBe(true);
    await user.click(screen.getByRole('button', { name: /Starting/ }));
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('offers the Mirror in mirror mode', () => {
    renderCapture({ mode: 'mirror' });
    expect(screen.getByText('The Decision Mirror')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Start the Mirror' })).toBeTruthy();
  });
});
