import { useState, type ChangeEvent } from 'react';
import { GradingRules } from '#machines/grading/rules.js';
import { buttonClasses, cx } from '#web/components/ui/index.js';
import { issuesByField } from './rules-draft.js';

/** The JSON file a rule set is kept in: the GradingRules object, nothing around it. */
function fileHref(rules: GradingRules): string {
  return `data:application/json;charset=utf-8,${encodeURIComponent(`${JSON.stringify(rules, null, 2)}\n`)}`;
}

/** Reads an uploaded file as a rule set: its JSON checked with GradingRules, every problem named. */
async function readRulesFile(file: File): Promise<{ ok: true; rules: GradingRules } | { ok: false; problems: string[] }> {
  let data: unknown;
  try {
    data = JSON.parse(await file.text());
  } catch {
    return { ok: false, problems: [`${file.name} is not a JSON file.`] };
  }
  const parsed = GradingRules.safeParse(data);
  if (parsed.success) return { ok: true, rules: parsed.data };
  return {
    ok: false,
    problems: Object.entries(issuesByField(parsed.error.issues, false)).map(([path, message]) => (path ? `${path}: ${message}` : message)),
  };
}

/**
 * Upload a rules file (a valid one fills the form) and download the form's rules as one, to keep
 * or edit; `rules` is null while the form has a mistake.
 */
export function RulesFile({
  rules,
  fileName,
  onLoad,
}: {
  rules: GradingRules | null;
  fileName: string;
  onLoad: (rules: GradingRules) => void;
}) {
  const [problems, setProblems] = useState<{ file: string; list: string[] } | null>(null);
  const [loaded, setLoaded] = useState<string | null>(null);

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.target;
    const file = input.files?.[0];
    if (!file) return;
    void readRulesFile(file).then((read) => {
      // the same file can be chosen again after it is fixed
      input.value = '';
      if (read.ok) {
        setProblems(null);
        setLoaded(file.name);
        onLoad(read.rules);
      } else {
        setLoaded(null);
        setProblems({ file: file.name, list: read.problems });
      }
    });
  };

  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center gap-3">
        <input
          id="grading-rules-file"
          type="file"
          accept="application/json,.json"
          aria-describedby="grading-rules-file-hint"
          onChange={choose}
          className="peer sr-only"
        />
        <label
          htmlFor="grading-rules-file"
          className={cx(
            buttonClasses({ variant: 'secondary', size: 'sm' }),
            'cursor-pointer peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brass',
          )}
        >
          Upload a rules file
        </label>
        {rules ? (
          <a href={fileHref(rules)} download={fileName} className={buttonClasses({ variant: 'ghost', size: 'sm' })}>
            Download these rules
          </a>
        ) : (
          <span className="text-sm text-muted">Fix the fields below to download these rules.</span>
        )}
      </div>
      <p id="grading-rules-file-hint" className="text-sm text-muted">
        A JSON file of the rules, like the one Download gives: a valid file fills the form below.
      </p>
      <div role="status">{loaded && <p className="text-sm font-medium text-success">{loaded} filled the form.</p>}</div>
      {problems && (
        <div role="alert" className="rounded-2xl border border-danger/30 bg-danger-soft px-4 py-3 text-sm text-danger">
          <p className="font-semibold">{problems.file} cannot be used:</p>
          <ul className="mt-1 list-disc pl-5">
            {problems.list.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
