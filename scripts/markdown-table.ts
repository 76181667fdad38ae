// Reads a table of a Markdown document, for the tests that keep docs/architecture.md's tables true.

/** The body rows (cells trimmed) of the first table under the heading titled `heading`; throws when there is none. */
export function markdownTable(markdown: string, heading: string): string[][] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => /^#+ /.test(line) && line.replace(/^#+ /, '').trim() === heading);
  if (start === -1) throw new Error(`No heading "${heading}"`);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 1)) {
    if (/^#+ /.test(line)) break;
    if (line.startsWith('|'))
      rows.push(
        line
          .slice(1, line.trimEnd().endsWith('|') ? line.trimEnd().length - 1 : undefined)
          .split('|')
          .map((cell) => cell.trim()),
      );
    else if (rows.length) break;
  }
  if (rows.length < 2) throw new Error(`No table under "${heading}"`);
  // the header and the |---| line
  return rows.slice(2);
}
