/** The site's name and colours (web/src/styles.css), shared by the emails and the PDF report. */
export const BRAND = { name: 'Leadership Coaching', ink: '#0f2a3d', brass: '#c9a227', sand: '#f5f1e8', muted: '#5b6b78' } as const;

/** One piece of an email body; each renders to plain text and to HTML. */
export type Block =
  | { kind: 'p'; text: string }
  | { kind: 'heading'; text: string }
  | { kind: 'quote'; text: string }
  | { kind: 'link'; label: string; href: string }
  | { kind: 'fields'; rows: Array<[label: string, value: string]> }
  | { kind: 'items'; ordered: boolean; items: Array<{ title: string; body: string }> };

/** An email's two bodies. */
export interface Rendered {
  text: string;
  html: string;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const lines = (text: string) => escapeHtml(text).replaceAll('\n', '<br>');

function blockText(block: Block): string {
  switch (block.kind) {
    case 'p':
      return block.text;
    case 'heading':
      return block.text.toUpperCase();
    case 'quote':
      return block.text
        .split('\n')
        .map((line) => `> ${line}`)
        .join('\n');
    case 'link':
      return `${block.label}: ${block.href}`;
    case 'fields':
      return block.rows.map(([label, value]) => `${label}: ${value}`).join('\n');
    case 'items':
      return block.items.map((item, i) => `${block.ordered ? `${i + 1}.` : '-'} ${item.title}\n   ${item.body}`).join('\n\n');
  }
}

function blockHtml(block: Block): string {
  const p = 'margin:0 0 16px;';
  switch (block.kind) {
    case 'p':
      return `<p style="${p}">${lines(block.text)}</p>`;
    case 'heading':
      return `<h2 style="margin:28px 0 12px;font-family:Helvetica,Arial,sans-serif;font-size:13px;letter-spacing:2px;text-transform:uppercase;color:${BRAND.brass};">${escapeHtml(block.text)}</h2>`;
    case 'quote':
      return `<blockquote style="${p}padding:12px 16px;border-left:3px solid ${BRAND.brass};background:${BRAND.sand};">${lines(block.text)}</blockquote>`;
    case 'link':
      return `<p style="${p}"><a href="${escapeHtml(block.href)}" style="color:${BRAND.ink};font-weight:bold;">${escapeHtml(block.label)}</a></p>`;
    case 'fields':
      return `<table role="presentation" style="${p}border-collapse:collapse;">${block.rows
        .map(
          ([label, value]) =>
            `<tr><td style="padding:2px 16px 2px 0;color:${BRAND.muted};vertical-align:top;">${escapeHtml(label)}</td><td style="padding:2px 0;">${lines(value)}</td></tr>`,
        )
        .join('')}</table>`;
    case 'items': {
      const tag = block.ordered ? 'ol' : 'ul';
      return `<${tag} style="${p}padding-left:22px;">${block.items
        .map((item) => `<li style="margin-bottom:12px;"><strong>${escapeHtml(item.title)}</strong><br>${lines(item.body)}</li>`)
        .join('')}</${tag}>`;
    }
  }
}

const footerHtml = (footer: string[]) =>
  footer.length === 0
    ? ''
    : `<tr><td style="padding:16px 28px 24px;border-top:1px solid ${BRAND.sand};font-family:Helvetica,Arial,sans-serif;font-size:13px;line-height:1.6;color:${BRAND.muted};">${footer.map(escapeHtml).join('<br>')}</td></tr>\n`;

/**
 * Renders blocks into the text body and a simple, email-client-safe HTML body with the brand header,
 * and the footer's lines (the coach's contact details) below a rule.
 */
export function render(blocks: Block[], footer: string[] = []): Rendered {
  const text = `${blocks.map(blockText).join('\n\n')}\n${footer.length ? `\n-- \n${footer.join('\n')}\n` : ''}`;
  const html = `<!doctype html>
<html><body style="margin:0;padding:0;background:${BRAND.sand};">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:${BRAND.sand};padding:24px 0;"><tr><td align="center">
<table role="presentation" width="560" cellpadding="0" cellspacing="0" style="max-width:560px;width:100%;background:#ffffff;border-radius:8px;font-family:Georgia,'Times New Roman',serif;color:${BRAND.ink};">
<tr><td style="background:${BRAND.ink};padding:18px 28px;border-radius:8px 8px 0 0;color:${BRAND.brass};font-family:Helvetica,Arial,sans-serif;font-size:12px;letter-spacing:3px;text-transform:uppercase;">${escapeHtml(BRAND.name)}</td></tr>
<tr><td style="padding:28px;font-size:16px;line-height:1.6;">
${blocks.map(blockHtml).join('\n')}
</td></tr>
${footerHtml(footer)}</table>
</td></tr></table>
</body></html>
`;
  return { text, html };
}
