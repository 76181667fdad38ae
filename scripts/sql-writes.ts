// Finds the SQL in a source file that writes a table, by a plain scan of its text: comments are
// blanked first (prose about a table is not a write), then a tolerant matcher reads every
// INSERT INTO, UPDATE ... SET, DELETE FROM, MERGE INTO, TRUNCATE and COPY ... FROM, across lines and
// in any case. It reads code and strings alike, so SQL split over a template string is still seen.

export interface SqlWrite {
  table: string;
  line: number;
  statement: string;
}

// a table's name, maybe quoted or with its schema, captured whole and cleaned by `tableName`; or an
// interpolated one, which names no table the check knows, so it is reported
const NAME = String.raw`((?:"?[a-z_][a-z0-9_]*"?\.)?"?[a-z_][a-z0-9_]*"?|\$\{[^}]*\})`;
const MORE_NAMES = String.raw`((?:\s*,\s*(?:"?[a-z_][a-z0-9_]*"?\.)?"?[a-z_][a-z0-9_]*"?)*)`;

// Each pattern captures the written table's name (without schema or quotes) in group 1.
const WRITES: [string, RegExp][] = [
  ['INSERT INTO', new RegExp(String.raw`\binsert\s+into\s+${NAME}`, 'giu')],
  // FOR UPDATE, FOR NO KEY UPDATE (row locks), ON CONFLICT ... DO UPDATE (the row being inserted) and
  // ON UPDATE (a foreign key's action) are no writes of another table; an UPDATE writes when a SET follows
  [
    'UPDATE',
    new RegExp(String.raw`(?<!\b(?:for|key|do|on)\s+)\bupdate\s+(?:only\s+)?${NAME}(?:\s+(?:as\s+)?[a-z_][a-z0-9_]*)?\s+set\b`, 'giu'),
  ],
  ['DELETE FROM', new RegExp(String.raw`\bdelete\s+from\s+(?:only\s+)?${NAME}`, 'giu')],
  ['MERGE INTO', new RegExp(String.raw`\bmerge\s+into\s+(?:only\s+)?${NAME}`, 'giu')],
  ['TRUNCATE', new RegExp(String.raw`\btruncate\s+(?:table\s+)?(?:only\s+)?${NAME}${MORE_NAMES}`, 'giu')],
  ['COPY', new RegExp(String.raw`\bcopy\s+${NAME}(?:\s*\([^)]*\))?\s+from\b`, 'giu')],
];

/** Every table the text writes, with the line its statement starts on. */
export function sqlWrites(source: string): SqlWrite[] {
  const text = withoutComments(source);
  const found: (SqlWrite & { at: number })[] = [];
  for (const [statement, pattern] of WRITES) {
    for (const match of text.matchAll(pattern)) {
      const line = text.slice(0, match.index).split('\n').length;
      const tables = [match[1]!, ...(match[2] ?? '').split(',').slice(1)];
      for (const table of tables) found.push({ table: tableName(table), line, statement, at: match.index });
    }
  }
  // in the order they are written
  return found.sort((a, b) => a.at - b.at).map(({ at, ...write }) => write);
}

/** A table's name as the schema has it: without its schema or quotes, in lower case (an interpolation stays as written). */
export function tableName(name: string): string {
  const trimmed = name.trim();
  return trimmed.startsWith('${') ? trimmed : trimmed.replace(/^.*\./u, '').replaceAll('"', '').toLowerCase();
}

const REGEX_FOLLOWS = /[(,=:[!&|?{};+\-*%<>~^]$|^$|\b(?:return|typeof|case|of|in)$/u;

/**
 * The source with its comments replaced by spaces (line breaks kept, so line numbers hold): `//`
 * and block comments in TypeScript and JavaScript, `--` comments in SQL files. Strings, template
 * strings (with their `${}` parts) and regular expression literals are stepped over whole, so a
 * comment marker inside one is not taken for a comment.
 */
export function withoutComments(source: string, sql = false): string {
  if (sql) return source.replace(/--[^\n]*/gu, (comment) => ' '.repeat(comment.length));
  const out = source.split('');
  const blank = (from: number, to: number) => {
    for (let i = from; i < to; i++) if (out[i] !== '\n') out[i] = ' ';
  };
  // one entry per open template string: the brace depth of the `${}` part being read
  const templates: number[] = [];
  let inTemplate = false;
  let i = 0;
  while (i < source.length) {
    const char = source[i]!;
    if (inTemplate) {
      if (char === '\\') i += 2;
      else if (char === '`') {
        inTemplate = false;
        i++;
      } else if (char === '$' && source[i + 1] === '{') {
        templates.push(0);
        inTemplate = false;
        i += 2;
      } else i++;
      continue;
    }
    const next = source[i + 1];
    if (char === '/' && next === '/') {
      const end = source.indexOf('\n', i);
      const stop = end === -1 ? source.length : end;
      blank(i, stop);
      i = stop;
    } else if (char === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end === -1 ? source.length : end + 2;
      blank(i, stop);
      i = stop;
    } else if (char === "'" || char === '"') {
      i = endOfQuoted(source, i, char);
    } else if (char === '`') {
      inTemplate = true;
      i++;
    } else if (char === '/' && REGEX_FOLLOWS.test(source.slice(Math.max(0, i - 8), i).trimEnd())) {
      i = endOfRegex(source, i);
    } else {
      if (templates.length && char === '{') templates[templates.length - 1]!++;
      else if (templates.length && char === '}') {
        if (templates[templates.length - 1] === 0) {
          templates.pop();
          inTemplate = true;
        } else templates[templates.length - 1]!--;
      }
      i++;
    }
  }
  return out.join('');
}

function endOfQuoted(source: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < source.length && source[i] !== quote && source[i] !== '\n') i += source[i] === '\\' ? 2 : 1;
  return i + 1;
}

function endOfRegex(source: string, start: number): number {
  let i = start + 1;
  let inClass = false;
  while (i < source.length && source[i] !== '\n') {
    const char = source[i]!;
    if (char === '\\') i++;
    else if (char === '[') inClass = true;
    else if (char === ']') inClass = false;
    else if (char === '/' && !inClass) return i + 1;
    i++;
  }
  return i;
}
