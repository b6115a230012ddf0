import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { pdfText } from '../../tests/helpers/pdf.js';
import { drawConversationPdf, scriptRuns } from './conversation.js';

const drawing = {
  clientName: 'Asha Verma',
  downloadedAt: '26 Nov 2026, 4:05 pm',
  leftOut: 0,
  messages: [
    { sender: 'Asha Verma', team: false, day: '25 Nov 2026', time: '9:12 am', text: 'नमस्ते! क्या मैं नाश्ते में पोहा खा सकती हूँ? 🙏', files: [] },
    {
      sender: 'Meera Iyer',
      team: true,
      day: '25 Nov 2026',
      time: '9:40 am',
      text: 'Yes, with peanuts 👍\nOne katori.',
      files: ['plate.jpg'],
    },
  ],
};

describe('the conversation PDF', () => {
  it('cuts text into runs of one script, spaces staying with Latin and Devanagari but not after an emoji', () => {
    expect(scriptRuns('Hi नमस्ते 🙏 ok')).toEqual([
      { script: 'regular', text: 'Hi ' },
      { script: 'devanagari', text: 'नमस्ते ' },
      { script: 'emoji', text: '🙏' },
      { script: 'regular', text: ' ok' },
    ]);
    // A joined emoji (ZWJ, variation selector) stays one run.
    expect(scriptRuns('👩‍⚕️')).toEqual([{ script: 'emoji', text: '👩‍⚕️' }]);
  });

  it('prints Hindi and emoji in fonts that have them, with senders, files and lines as written', async () => {
    const pdf = await drawConversationPdf(drawing);
    const text = pdfText(pdf);
    for (const expected of ['Messages between Asha Verma and the care team', 'नमस्ते', '🙏', '👍', 'Attachment: plate.jpg', 'Page 1 of 1'])
      expect(text).toContain(expected);
    expect(text).toMatch(/peanuts 👍\s*\n\s*One katori\./);
    const fonts = execFileSync('pdffonts', ['-'], { input: Buffer.from(pdf), encoding: 'utf8' });
    for (const font of ['NotoSans-Regular', 'NotoSansDevanagari-Regular', 'NotoEmoji-Regular']) expect(fonts).toContain(font);
  }, 60_000);
});
