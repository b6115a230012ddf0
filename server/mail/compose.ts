import { BRAND } from '../brand.js';
import type { Mail } from './mailer.js';

/**
 * One branded layout for every mail that has both a plain and an HTML part.
 * A mail is a list of blocks; each renders once as text and once as HTML, so
 * the two parts always say the same thing.
 */
export type MailBlock =
  | string
  | { heading: string }
  | { steps: string[] }
  | { facts: Array<[label: string, value: string]> }
  | { button: { label: string; href: string } };

const BRAND_TEAL = '#0f766e';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

function blockText(block: MailBlock): string {
  if (typeof block === 'string') return block;
  if ('heading' in block) return block.heading.toUpperCase();
  if ('steps' in block) return block.steps.map((s, i) => `${i + 1}. ${s}`).join('\n');
  if ('facts' in block) return block.facts.map(([label, value]) => `${label}: ${value}`).join('\n');
  return `${block.button.label}: ${block.button.href}`;
}

function blockHtml(block: MailBlock): string {
  const p = 'margin:0 0 16px;font-size:15px;line-height:1.6;color:#1e293b';
  if (typeof block === 'string') return `<p style="${p}">${escapeHtml(block)}</p>`;
  if ('heading' in block) return `<h2 style="margin:24px 0 8px;font-size:17px;color:#0f172a">${escapeHtml(block.heading)}</h2>`;
  if ('steps' in block) {
    const items = block.steps.map((s) => `<li style="margin:0 0 8px">${escapeHtml(s)}</li>`).join('');
    return `<ol style="${p};padding-left:22px">${items}</ol>`;
  }
  if ('facts' in block) {
    const rows = block.facts
      .map(
        ([label, value]) =>
          `<tr><td style="padding:4px 16px 4px 0;color:#64748b;white-space:nowrap">${escapeHtml(label)}</td><td style="padding:4px 0;color:#0f172a;font-weight:600">${escapeHtml(value)}</td></tr>`,
      )
      .join('');
    return `<table role="presentation" style="margin:0 0 16px;font-size:15px;border-collapse:collapse">${rows}</table>`;
  }
  const { label, href } = block.button;
  return `<p style="margin:8px 0 24px"><a href="${escapeHtml(href)}" style="display:inline-block;background:${BRAND_TEAL};color:#ffffff;text-decoration:none;font-weight:700;padding:12px 20px;border-radius:8px">${escapeHtml(label)}</a></p>`;
}

export function composeMail(opts: { to: string; subject: string; greetingName?: string; blocks: MailBlock[] }): Mail {
  const greeting = opts.greetingName ? `Hello ${opts.greetingName},` : 'Hello,';
  const signature = `${BRAND.name} · ${BRAND.supportEmail} · ${BRAND.phoneDisplay}`;
  const text = [greeting, ...opts.blocks.map(blockText), `Warm regards,\nThe ${BRAND.name} team`, signature].join('\n\n');
  const html = [
    '<!doctype html><html><body style="margin:0;background:#f1f5f9;font-family:Segoe UI,Helvetica,Arial,sans-serif">',
    '<table role="presentation" width="100%" style="border-collapse:collapse"><tr><td align="center" style="padding:24px 12px">',
    '<table role="presentation" width="100%" style="max-width:560px;border-collapse:collapse;background:#ffffff;border-radius:12px;overflow:hidden">',
    `<tr><td style="background:${BRAND_TEAL};padding:18px 24px;color:#ffffff;font-size:20px;font-weight:800">${escapeHtml(BRAND.name)}</td></tr>`,
    '<tr><td style="padding:24px">',
    `<p style="margin:0 0 16px;font-size:15px;color:#1e293b">${escapeHtml(greeting)}</p>`,
    ...opts.blocks.map(blockHtml),
    `<p style="margin:24px 0 0;font-size:15px;color:#1e293b">Warm regards,<br>The ${escapeHtml(BRAND.name)} team</p>`,
    '</td></tr>',
    `<tr><td style="padding:16px 24px;background:#f8fafc;color:#64748b;font-size:12px">${escapeHtml(signature)}</td></tr>`,
    '</table></td></tr></table></body></html>',
  ].join('');
  return { to: opts.to, subject: opts.subject, text, html };
}
