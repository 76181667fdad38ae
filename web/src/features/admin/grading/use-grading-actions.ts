import { useState } from 'react';
import type { GradingRules } from '#machines/grading/rules.js';
import { applyResultSchema, regradeReportSchema, type RegradeReport, type RegradeScope } from '#machines/protocol/admin/grading.js';
import { useToast } from '#web/components/ui/index.js';
import { ApiError, api } from '#web/lib/api.js';
import { useSession } from '#web/lib/session.js';
import { useAdminFailure } from '../api.js';

export const GRADING_PATH = '/api/admin/grading';
const FIELDS_REFUSED = 'Some fields need a change';

/** The dry run shown: its report, the rules and the scope it was run with (the scope Apply sends). */
export interface Tried {
  report: RegradeReport;
  rulesKey: string;
  scope: RegradeScope;
}

/**
 * The screen's three calls: a dry run, Apply and Undo (POSTs with the session's CSRF token). A 400
 * hands its named fields to `onFields` ('rules.thresholds.bookCall', 'scope.from', 'note'); a 409
 * and any other failure are toasted with the server's message.
 */
export function useGradingActions({ onChanged, onFields }: { onChanged: () => void; onFields: (fields: Record<string, string>) => void }) {
  const session = useSession();
  const fail = useAdminFailure();
  const { toast } = useToast();
  const [busy, setBusy] = useState<'dry-run' | 'apply' | 'undo' | null>(null);

  const failed = (error: unknown) => {
    setBusy(null);
    if (error instanceof ApiError && error.status === 400 && Object.keys(error.fields).length > 0) {
      onFields(error.fields);
      toast({ title: FIELDS_REFUSED, description: 'Nothing was changed. Each field to change says why.', variant: 'destructive' });
      return;
    }
    fail(error, error instanceof ApiError && error.message ? error.message : undefined);
  };

  const dryRun = (rules: GradingRules, scope: RegradeScope, key: string, done: (tried: Tried) => void) => {
    setBusy('dry-run');
    const body = { rules, scope };
    api(`${GRADING_PATH}/dry-run`, { method: 'POST', body, csrfToken: session.csrfToken, schema: regradeReportSchema }).then((report) => {
      setBusy(null);
      done({ report, rulesKey: key, scope });
    }, failed);
  };

  const apply = (rules: GradingRules, scope: RegradeScope, note: string, done: () => void) => {
    setBusy('apply');
    const body = { rules, scope, ...(note.trim() && { note: note.trim() }) };
    api(`${GRADING_PATH}/apply`, { method: 'POST', body, csrfToken: session.csrfToken, schema: applyResultSchema }).then((result) => {
      setBusy(null);
      toast({
        title: 'Rules applied',
        description: `${result.version} is in force: ${result.application.regraded} leads re-graded, ${result.application.moved} changed tier.`,
        variant: 'success',
      });
      done();
      onChanged();
    }, failed);
  };

  const undo = (done: () => void) => {
    setBusy('undo');
    api(`${GRADING_PATH}/undo`, { method: 'POST', csrfToken: session.csrfToken, schema: applyResultSchema }).then(
      (result) => {
        setBusy(null);
        toast({
          title: 'Change undone',
          description: `${result.version} is back in force: ${result.application.regraded} leads re-graded, ${result.application.moved} changed tier.`,
          variant: 'success',
        });
        done();
        onChanged();
      },
      (error: unknown) => {
        done();
        failed(error);
      },
    );
  };

  return { busy, dryRun, apply, undo };
}
