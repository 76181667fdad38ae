import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The probe of the static check: the server's effect table (core/flows/effects.ts) fails to typecheck
// when it and the machines' effect declarations disagree. The compiler API checks the real files
// with one edit made in memory; only the table's file is checked, so each case costs little beyond
// the first.

const root = fileURLToPath(new URL('../..', import.meta.url));
const TABLE = path.join(root, 'core/flows/effects.ts');
const DECLARATIONS = path.join(root, 'machines/assessment-flow/assessment-flow.effects.ts');

const { options: projectOptions } = ts.getParsedCommandLineOfConfigFile(
  path.join(root, 'tsconfig.json'),
  {},
  {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    },
  },
)!;
// the server's own libraries: the browser's DOM and Vite types would only slow the first check
const options = { ...projectOptions, lib: ['lib.es2023.d.ts'], types: ['node'] };

/** Source files read once and shared by every program, so a case parses only the file it edits. */
const parsed = new Map<string, ts.SourceFile | undefined>();
let previous: ts.Program | undefined;

/** The table's type errors once `file` has `from` replaced by `to` (no edit: the files as they are). */
function tableErrors(edit?: { file: string; from: string; to: string }): string[] {
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, language) => {
    const resolved = path.resolve(fileName);
    if (edit && resolved === edit.file) {
      const text = ts.sys.readFile(resolved)!;
      // an edit that no longer applies must fail the probe, not pass it vacuously
      if (!text.includes(edit.from)) throw new Error(`${edit.file} no longer has ${JSON.stringify(edit.from)}`);
      return ts.createSourceFile(fileName, text.replace(edit.from, edit.to), language);
    }
    if (!parsed.has(resolved)) parsed.set(resolved, read(fileName, language));
    return parsed.get(resolved);
  };
  const program = ts.createProgram({ rootNames: [TABLE], options, host, oldProgram: previous });
  previous = program;
  return program.getSemanticDiagnostics(program.getSourceFile(TABLE)).map((diagnostic) => {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    return diagnostic.file ? `${path.relative(root, diagnostic.file.fileName)}: ${message}` : message;
  });
}

describe('the server’s effect table, checked against the machines’ declarations', () => {
  it('typechecks as it is', { timeout: 60_000 }, () => {
    expect(tableErrors()).toEqual([]);
  });

  const broken = [
    {
      case: 'a server effect left out of the table',
      edit: { file: TABLE, from: '    sendReceipt,\n', to: '' },
      error: "Property 'sendReceipt' is missing",
    },
    {
      case: 'a server effect a machine adds without its server side',
      edit: {
        file: DECLARATIONS,
        from: '  clearSavedAnswers:',
        to: '  sendInvoice: serverEffect<ReceiptRequest>(),\n  clearSavedAnswers:',
      },
      error: "Property 'sendInvoice' is missing",
    },
    {
      case: 'an effect misspelled in the table',
      edit: { file: TABLE, from: '    remindToBook,\n', to: '    remindToBok: remindToBook,\n' },
      error: "'remindToBok' does not exist",
    },
    {
      case: 'an effect renamed in the machine’s declarations',
      edit: { file: DECLARATIONS, from: '  sendHomework: serverEffect', to: '  sendHomeworkEmail: serverEffect' },
      error: "'sendHomework' does not exist",
    },
    {
      case: 'a server effect taking other params than declared',
      edit: {
        file: TABLE,
        from: 'request: HomeworkRequest): Promise<FollowUp | void>',
        to: 'request: ReceiptRequest): Promise<FollowUp | void>',
      },
      error: "is not assignable to type 'ServerEffect<HomeworkRequest>'",
    },
    {
      case: 'a server side for an effect declared the browser’s',
      edit: {
        file: TABLE,
        from: '    clearStoredAssessment,\n',
        to: '    clearStoredAssessment,\n    clearSavedAnswers: clearStoredAssessment,\n',
      },
      error: "'clearSavedAnswers' does not exist",
    },
  ];

  it.each(broken)('fails with $case', { timeout: 60_000 }, ({ edit, error }) => {
    expect(tableErrors(edit).join('\n')).toContain(error);
  });
});
