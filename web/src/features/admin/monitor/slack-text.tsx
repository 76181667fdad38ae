import { Fragment, type ReactNode } from 'react';

/*
 * Slack's message markup (mrkdwn) drawn as React text, never as HTML: `*bold*`, `_italic_`,
 * `~strike~`, `` `code` ``, links `<url|label>` and `<url>` (http, https and mailto only), channel
 * and user references `<#C123|name>` and `<@U123>`, and the three entities Slack escapes.
 */

/** A run of a message: plain, marked up, or a link. */
export type SlackPiece =
  | { kind: 'text'; text: string }
  | { kind: 'bold' | 'italic' | 'strike' | 'code'; text: string }
  | { kind: 'link'; href: string; text: string };

const TOKEN = /<([^<>\s|]+)(?:\|([^<>]*))?>|\*([^*\n]+)\*|(?<![\w])_([^_\n]+)_(?![\w])|~([^~\n]+)~|`([^`\n]+)`/g;
const SAFE_LINK = /^(https?:\/\/|mailto:)/i;

function unescape(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/** Splits a message into plain and marked-up pieces. */
export function parseSlackText(text: string): SlackPiece[] {
  const pieces: SlackPiece[] = [];
  let last = 0;
  const plain = (to: number) => {
    if (to > last) pieces.push({ kind: 'text', text: unescape(text.slice(last, to)) });
  };
  for (const match of text.matchAll(TOKEN)) {
    const [whole, target, label, bold, italic, strike, code] = match;
    plain(match.index);
    last = match.index + whole.length;
    if (target !== undefined) {
      if (target.startsWith('@')) pieces.push({ kind: 'text', text: `@${label || target.slice(1)}` });
      else if (target.startsWith('#')) pieces.push({ kind: 'text', text: `#${label || target.slice(1)}` });
      else if (target.startsWith('!')) pieces.push({ kind: 'text', text: `@${label || target.slice(1)}` });
      else if (SAFE_LINK.test(target))
        pieces.push({ kind: 'link', href: unescape(target), text: unescape(label || target.replace(/^mailto:/i, '')) });
      else pieces.push({ kind: 'text', text: unescape(label || target) });
    } else if (bold !== undefined) pieces.push({ kind: 'bold', text: unescape(bold) });
    else if (italic !== undefined) pieces.push({ kind: 'italic', text: unescape(italic) });
    else if (strike !== undefined) pieces.push({ kind: 'strike', text: unescape(strike) });
    else pieces.push({ kind: 'code', text: unescape(code!) });
  }
  plain(text.length);
  return pieces;
}

function render(piece: SlackPiece): ReactNode {
  switch (piece.kind) {
    case 'bold':
      return <strong className="font-semibold">{piece.text}</strong>;
    case 'italic':
      return <em>{piece.text}</em>;
    case 'strike':
      return <del>{piece.text}</del>;
    case 'code':
      return <code className="rounded bg-sand px-1 font-mono text-[0.85em]">{piece.text}</code>;
    case 'link':
      return (
        <a href={piece.href} target="_blank" rel="noopener noreferrer" className="font-medium text-ink underline underline-offset-2">
          {piece.text}
        </a>
      );
    default:
      return piece.text;
  }
}

/** A Slack message's text with its markup applied. */
export function SlackText({ text }: { text: string }) {
  return (
    <>
      {parseSlackText(text).map((piece, index) => (
        <Fragment key={index}>{render(piece)}</Fragment>
      ))}
    </>
  );
}
