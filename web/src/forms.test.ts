import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * No form puts what a person typed in an address. A <form> without method="post" is sent by a
 * browser that does not run the site's code (or before it runs) as a GET, its fields in the URL,
 * the browser's history and every access log on the way. So every form the web app draws says
 * method="post" (docs/security.md, "Forms without JavaScript"); the ones the server can take as
 * they are also name an action (the contact form: POST /contact).
 */

const SOURCE = fileURLToPath(new URL('.', import.meta.url));

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx$/.test(entry.name) && !entry.name.includes('.test.') ? [full] : [];
  });
}

/** Each `<form ...>` opening tag in JSX, to its closing `>` (one inside braces, as in `=>`, does not end it). */
function formTags(source: string): string[] {
  const tags: string[] = [];
  for (let start = source.indexOf('<form'); start >= 0; start = source.indexOf('<form', start + 1)) {
    if (/[\w-]/.test(source[start + 5] ?? '')) continue;
    let depth = 0;
    let end = start;
    for (; end < source.length; end++) {
      const char = source[end];
      if (char === '{') depth++;
      else if (char === '}') depth--;
      else if (char === '>' && depth === 0) break;
    }
    tags.push(source.slice(start, end + 1));
  }
  return tags;
}

describe('every form in web/src', () => {
  it('finds the opening tags, arrow functions in their props included', () => {
    expect(formTags('<form method="post" onSubmit={(e) => go(e)} a="b">x</form><formula />')).toEqual([
      '<form method="post" onSubmit={(e) => go(e)} a="b">',
    ]);
  });

  it('is sent with method="post", never as a GET that puts its fields in the address', () => {
    const forms = sourceFiles(SOURCE).flatMap((file) =>
      formTags(readFileSync(file, 'utf8')).map((tag) => ({ file: path.relative(SOURCE, file), tag })),
    );
    // the contact, sign-in, capture, email capture, survey, mirror and admin forms at the least
    expect(forms.length).toBeGreaterThanOrEqual(13);
    expect(forms.filter(({ tag }) => !/\smethod="post"/.test(tag)).map(({ file }) => file)).toEqual([]);
  });
});
