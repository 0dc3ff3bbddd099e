/**
 * Lays out a guide's PDF content on A4 with pdf-lib. Loaded only when someone presses
 * 'Baixar PDF' (a dynamic import), so pdf-lib, fontkit and the fonts never weigh on the first
 * screens; the service worker precaches this chunk and the fonts, so it works offline.
 * pdf-lib because it writes PDFs in the browser with no server and embeds (subsets) TrueType
 * fonts through fontkit; Noto Sans covers every Portuguese letter and is under the OFL.
 */
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import QRCode from 'qrcode';
import regularUrl from '@fontsource/noto-sans/files/noto-sans-latin-400-normal.woff?url';
import boldUrl from '@fontsource/noto-sans/files/noto-sans-latin-700-normal.woff?url';
import type { GuidePdfContent, PdfSection } from '@/domain/guides/pdf-content.ts';

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 48;
const WIDTH = A4[0] - 2 * MARGIN;
const INK = rgb(0.1, 0.12, 0.16);
const MUTED = rgb(0.35, 0.38, 0.43);
const LINE = rgb(0.82, 0.84, 0.87);

type Fonts = { regular: PDFFont; bold: PDFFont };

async function fontBytes(url: string): Promise<ArrayBuffer> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`font ${url}: HTTP ${response.status}`);
  return response.arrayBuffer();
}

/** Words onto lines no wider than `width`; a word longer than a line is cut (a BR Code). */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      let rest = word;
      while (font.widthOfTextAtSize(rest, size) > width) {
        let cut = rest.length - 1;
        while (cut > 1 && font.widthOfTextAtSize(rest.slice(0, cut), size) > width) cut--;
        if (line) lines.push(line);
        lines.push(rest.slice(0, cut));
        line = '';
        rest = rest.slice(cut);
      }
      const candidate = line ? `${line} ${rest}` : rest;
      if (font.widthOfTextAtSize(candidate, size) <= width) line = candidate;
      else {
        lines.push(line);
        line = rest;
      }
    }
    lines.push(line);
  }
  return lines;
}

/** A cursor down the page that starts a new page when the next block does not fit. */
class Layout {
  page: PDFPage;
  y: number;
  constructor(
    private readonly doc: PDFDocument,
    readonly fonts: Fonts,
  ) {
    this.page = doc.addPage(A4);
    this.y = A4[1] - MARGIN;
  }
  room(height: number): void {
    if (this.y - height >= MARGIN) return;
    this.page = this.doc.addPage(A4);
    this.y = A4[1] - MARGIN;
  }
  text(
    value: string,
    opts: { size?: number; bold?: boolean; color?: typeof INK; x?: number; width?: number } = {},
  ) {
    const size = opts.size ?? 10;
    const font = opts.bold ? this.fonts.bold : this.fonts.regular;
    const x = opts.x ?? MARGIN;
    for (const line of wrap(value, font, size, opts.width ?? WIDTH - (x - MARGIN))) {
      this.room(size * 1.45);
      this.y -= size * 1.45;
      this.page.drawText(line, { x, y: this.y + size * 0.3, size, font, color: opts.color ?? INK });
    }
  }
  gap(points: number) {
    this.y -= points;
  }
  rule() {
    this.room(8);
    this.y -= 6;
    this.page.drawLine({
      start: { x: MARGIN, y: this.y },
      end: { x: A4[0] - MARGIN, y: this.y },
      thickness: 0.7,
      color: LINE,
    });
    this.y -= 4;
  }
}

/** The QR as vector squares with a 4-module quiet zone: sharp at any zoom and on paper. */
function drawQr(
  page: PDFPage,
  value: string,
  x: number,
  top: number,
  side: number,
  level: 'H' | 'M',
) {
  const { modules } = QRCode.create(value, { errorCorrectionLevel: level });
  const cells = modules.size + 8;
  const cell = side / cells;
  page.drawRectangle({ x, y: top - side, width: side, height: side, color: rgb(1, 1, 1) });
  for (let row = 0; row < modules.size; row++) {
    for (let col = 0; col < modules.size; col++) {
      if (!modules.get(row, col)) continue;
      page.drawRectangle({
        x: x + (col + 4) * cell,
        y: top - (row + 5) * cell,
        width: cell,
        height: cell,
        color: rgb(0, 0, 0),
      });
    }
  }
}

function section(layout: Layout, s: PdfSection) {
  layout.room(40);
  layout.gap(6);
  layout.text(s.title, { size: 12, bold: true });
  for (const [label, value] of s.rows) {
    const valueLines = wrap(value, layout.fonts.regular, 10, WIDTH - 140);
    layout.room(valueLines.length * 14.5);
    const top = layout.y;
    layout.text(label, { color: MUTED, width: 130 });
    layout.y = top;
    layout.text(value, { x: MARGIN + 140 });
  }
}

const GUIDE_QR_SIDE = 120;
const PIX_QR_SIDE = 150;

/** The guide as PDF bytes. */
export async function renderGuidePdf(content: GuidePdfContent): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  const [regular, bold] = await Promise.all([fontBytes(regularUrl), fontBytes(boldUrl)]);
  const fonts = {
    regular: await doc.embedFont(regular, { subset: true }),
    bold: await doc.embedFont(bold, { subset: true }),
  };
  doc.setTitle(`${content.title} ${content.meta[0] ?? ''}`.trim(), { showInWindowTitleBar: true });
  doc.setLanguage(content.language);
  doc.setCreator('Saúde Já');
  doc.setProducer('Saúde Já');

  const layout = new Layout(doc, fonts);
  const top = layout.y;
  drawQr(layout.page, content.qr.value, A4[0] - MARGIN - GUIDE_QR_SIDE, top, GUIDE_QR_SIDE, 'H');
  const textWidth = WIDTH - GUIDE_QR_SIDE - 16;
  layout.text(content.title, { size: 20, bold: true, width: textWidth });
  layout.gap(4);
  for (const line of content.meta) layout.text(line, { size: 11, width: textWidth });
  layout.gap(6);
  layout.text(content.qr.caption, { size: 9, color: MUTED, width: textWidth });
  layout.y = Math.min(layout.y, top - GUIDE_QR_SIDE);
  layout.rule();

  for (const s of content.sections) section(layout, s);
  layout.rule();
  section(layout, content.payment);
  layout.gap(4);
  for (const note of content.payment.notes) layout.text(note, { size: 10 });
  if (content.payment.pix) {
    const pix = content.payment.pix;
    layout.room(PIX_QR_SIDE + 60);
    layout.gap(8);
    layout.text(pix.qrCaption, { bold: true });
    layout.gap(4);
    drawQr(layout.page, pix.code, MARGIN, layout.y, PIX_QR_SIDE, 'M');
    layout.y -= PIX_QR_SIDE + 6;
    layout.text(pix.caption, { bold: true });
    layout.text(pix.code, { size: 8, color: MUTED });
  }
  layout.rule();
  layout.text(content.explanation, { size: 10 });
  layout.gap(8);
  layout.text(content.policy.title, { size: 11, bold: true });
  layout.text(content.policy.text, { size: 9.5, color: MUTED });
  return doc.save();
}
