/* The visitor's words made fit to quote back: markup-free, short, never ending mid-phrase. */

const MAX_QUOTE_WORDS = 7;
const MAX_QUOTE_CHARS = 40;

const PREPOSITIONS = new Set('of to for with at from by about on in'.split(' '));
const OBJECTS = new Set('her you it'.split(' '));
export const DANGLING = new Set(
  'a an the and or but so of in on at to for with from by as my our your their his her i we you they he she it is was am are be been have had how what that when if which who just really very before after until about than then because'.split(
    ' ',
  ),
);

/** The text without markup, links or control characters, whitespace collapsed. */
export function plainText(text: string): string {
  return text
    .normalize('NFC')
    .replace(/<(script|style)\b[^>]{0,500}>[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<[^>]{0,500}>/g, ' ')
    .replace(/&#?\w{1,10};/g, ' ')
    .replace(/\[([^\]]{0,200})\]\([^)]{0,500}\)/g, '$1')
    .replace(/\bhttps?:\/\/\S+/gi, ' ')
    .replace(/[\p{Cc}\p{Cf}]/gu, ' ')
    .replace(/[*_~`]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Words fit to quote back: letters, digits and a little punctuation (commas kept, so the words read as
 * written), at most seven words and 40 characters, with an ellipsis when cut. Null when nothing is left.
 */
export function quotable(words: string): string | null {
  const cleaned = words
    .replace(/[^\p{L}\p{M}\p{N}\s'’&%$/,-]/gu, ' ')
    .replace(/\s+/g, ' ')
    .replace(/^[\s,]+|[\s,]+$/g, '');
  if (!/[\p{L}\p{N}]/u.test(cleaned)) return null;
  let cut = cleaned.split(' ').slice(0, MAX_QUOTE_WORDS).join(' ');
  const chars = Array.from(cut);
  if (chars.length > MAX_QUOTE_CHARS) {
    cut = chars.slice(0, MAX_QUOTE_CHARS).join('');
    // Cut back to a whole word when the text has spaces; scripts without them are cut by character.
    if (cut.includes(' ')) cut = cut.slice(0, cut.lastIndexOf(' '));
  }
  // A quote that ends on "the" or "I" reads as cut off: end it on a content word ("because of her" is whole).
  const kept = cut.split(' ');
  const bare = (word: string | undefined) => word?.replace(/,$/, '').toLowerCase() ?? '';
  const objectOfPreposition = () => OBJECTS.has(bare(kept.at(-1))) && PREPOSITIONS.has(bare(kept.at(-2)));
  while (kept.length > 1 && DANGLING.has(bare(kept.at(-1))) && !objectOfPreposition()) kept.pop();
  cut = kept.join(' ').replace(/[\s'’&/,-]+$/u, '');
  return cut === cleaned ? cut : `${cut}…`;
}
