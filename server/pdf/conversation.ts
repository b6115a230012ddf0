import { BRAND } from '../brand.js';
import { A4, type FontWeight, inBottomMargin, type PdfDoc, renderPdf } from './document.js';
import { pdfPool } from './pool.js';

/**
 * "Download conversation" as a PDF: every message, oldest first,
 * with its sender and time, in any script the clients write: Latin in Noto
 * Sans, Hindi in Noto Sans Devanagari, emoji in Noto Emoji (a font per run of
 * text, chosen per character). Attachments are named, not included.
 * Everything here is plain strings, ready to cross to a PDF worker thread.
 */
export type ConversationDrawing = {
  clientName: string;
  /** When it was made, as the file says it (India time). */
  downloadedAt: string;
  messages: { sender: string; team: boolean; day: string; time: string; text: string; files: string[] }[];
  /** The number of messages left out of a very long history, or 0. */
  leftOut: number;
};

const M = { top: 56, bottom: 56, left: 50, right: 50 };
const W = A4.width - M.left - M.right;
const COLOR = { ink: '#1f2937', muted: '#6b7280', brand: '#166534', team: '#166534', client: '#1d4ed8', rule: '#e5e7eb' };

type Script = 'regular' | 'devanagari' | 'emoji';

const DEVANAGARI = /[\u0900-\u097F\uA8E0-\uA8FF\u1CD0-\u1CFF]/u;
const EMOJI = /\p{Extended_Pictographic}|\p{Regional_Indicator}|\p{Emoji_Modifier}/u;
/** Characters that belong to whatever run they follow: joiners, variation selectors, combining marks (and spaces, but not after an emoji: Noto Emoji's space is wide). */
const NEUTRAL = /\u200C|\u200D|\uFE0E|\uFE0F|\p{M}/u;
const SPACE = /\s/u;

/** The text cut into runs of one script each, so each run is drawn in a font that has its glyphs. */
export function scriptRuns(text: string): { script: Script; text: string }[] {
  const runs: { script: Script; text: string }[] = [];
  for (const ch of text) {
    const last = runs.at(-1);
    const script: Script | null = DEVANAGARI.test(ch)
      ? 'devanagari'
      : EMOJI.test(ch)
        ? 'emoji'
        : NEUTRAL.test(ch) || (SPACE.test(ch) && last?.script !== 'emoji')
          ? null
          : 'regular';
    if (last && (script === null || script === last.script)) last.text += ch;
    else runs.push({ script: script ?? 'regular', text: ch });
  }
  return runs;
}

/** Writes `text` at the current position, in the font its script needs run by run; `base` is the font for Latin. */
function mixedText(doc: PdfDoc, text: string, base: FontWeight, size: number, color: string, x: number) {
  for (const line of text.split(/\r?\n/)) mixedLine(doc, line || ' ', base, size, color, x);
}

function mixedLine(doc: PdfDoc, line: string, base: FontWeight, size: number, color: string, x: number) {
  const runs = scriptRuns(line);
  doc.fontSize(size).fillColor(color);
  runs.forEach((run, i) => {
    doc.font(run.script === 'regular' ? base : run.script);
    const options = { width: W - (x - M.left), continued: i < runs.length - 1, lineGap: 2 };
    if (i === 0) doc.text(run.text, x, doc.y, options);
    else doc.text(run.text, options);
  });
}

export function drawConversationPdf(d: ConversationDrawing): Promise<Uint8Array> {
  return renderPdf(
    {
      title: `${BRAND.name}: messages with the care team`,
      author: BRAND.name,
      subject: `Messages between ${d.clientName} and the care team`,
    },
    M,
    (doc) => {
      doc.font('semibold').fontSize(18).fillColor(COLOR.brand).text(BRAND.name, M.left, M.top, { width: W });
      mixedText(doc, `Messages between ${d.clientName} and the care team`, 'semibold', 12, COLOR.ink, M.left);
      doc
        .font('regular')
        .fontSize(9)
        .fillColor(COLOR.muted)
        .text(`Downloaded ${d.downloadedAt} (India time)`, M.left, doc.y + 2, { width: W });
      doc.moveDown(0.8);
      if (d.messages.length === 0)
        doc.font('regular').fontSize(10.5).fillColor(COLOR.ink).text('No messages yet.', M.left, doc.y, { width: W });

      let day = '';
      for (const m of d.messages) {
        // Keep a message's heading with at least its first line.
        if (doc.y > A4.height - M.bottom - 60) doc.addPage();
        if (m.day !== day) {
          day = m.day;
          const y = doc.y + 6;
          doc
            .moveTo(M.left, y + 6)
            .lineTo(A4.width - M.right, y + 6)
            .lineWidth(0.5)
            .strokeColor(COLOR.rule)
            .stroke();
          const label = ` ${day} `;
          doc.font('semibold').fontSize(8.5);
          const w = doc.widthOfString(label) + 8;
          doc.rect(M.left + (W - w) / 2, y, w, 12).fill('#ffffff');
          doc.fillColor(COLOR.muted).text(label, M.left, y + 1.5, { width: W, align: 'center' });
          doc.y = y + 18;
        }
        mixedText(doc, `${m.sender}  ·  ${m.time}`, 'semibold', 9, m.team ? COLOR.team : COLOR.client, M.left);
        if (m.text) mixedText(doc, m.text, 'regular', 10.5, COLOR.ink, M.left + 10);
        for (const f of m.files) mixedText(doc, `Attachment: ${f}`, 'regular', 9, COLOR.muted, M.left + 10);
        doc.moveDown(0.6);
      }
      if (d.leftOut > 0) {
        doc
          .font('regular')
          .fontSize(9)
          .fillColor(COLOR.muted)
          .text(`The ${d.leftOut.toLocaleString('en-IN')} latest messages are not in this file.`, M.left, doc.y, { width: W });
      }

      const range = doc.bufferedPageRange();
      for (let i = range.start; i < range.start + range.count; i++) {
        doc.switchToPage(i);
        inBottomMargin(doc, () => {
          doc
            .font('regular')
            .fontSize(8)
            .fillColor(COLOR.muted)
            .text(`${BRAND.name} · ${d.clientName} · Page ${i + 1} of ${range.count}`, M.left, A4.height - 36, {
              width: W,
              align: 'center',
            });
        });
      }
    },
  );
}

/** Renders on the PDF pool's worker threads (never on the event loop). */
export function renderConversationPdf(drawing: ConversationDrawing): Promise<Uint8Array> {
  return pdfPool().render({ kind: 'conversation', drawing });
}
