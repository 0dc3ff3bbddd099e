import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, test, type Download, type Page } from '@playwright/test';
import jsQR from 'jsqr';
import { PDFDict, PDFDocument, PDFName } from 'pdf-lib';
import type * as PdfJs from 'pdfjs-dist';
import { hasError, parsePix, PixElementType } from 'pix-utils';
import { PNG } from 'pngjs';
import { adminClient, ANA, createPatientAccount, logInDoctor } from './doctor-support.ts';
import { decodeQr } from './patient-support.ts';
import { firstFreeSlot, logIn, randomCpf, slotButton } from './support.ts';

const SCREENSHOTS = 'test-results/e2e/screenshots';
const VIEWPORTS = [
  { name: '1280', width: 1280, height: 800 },
  { name: '390', width: 390, height: 844 },
] as const;
const require = createRequire(import.meta.url);
const PDFJS_DIR = require.resolve('pdfjs-dist/build/pdf.mjs').replace(/pdf\.mjs$/, '');

async function shots(page: Page, name: string) {
  for (const v of VIEWPORTS) {
    await page.setViewportSize({ width: v.width, height: v.height });
    await page.screenshot({
      path: `${SCREENSHOTS}/documentos-${name}-${v.name}.png`,
      fullPage: true,
    });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

async function downloaded(page: Page, click: () => Promise<void>): Promise<Download> {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  return download;
}

async function bytesOf(download: Download): Promise<Buffer> {
  const path = await download.path();
  return readFileSync(path);
}

/** RFC 5545 content lines: unfolded, as NAME;PARAMS → value. */
function icsLines(text: string): string[] {
  return text
    .replace(/\r\n[ \t]/g, '')
    .split('\r\n')
    .filter(Boolean);
}

function icsValue(lines: string[], name: string): string[] {
  return lines.filter((l) => l.split(/[;:]/)[0] === name).map((l) => l.slice(l.indexOf(':') + 1));
}

/**
 * Renders the PDF's first page with pdf.js in Chromium (a page of its own, served from
 * node_modules) and returns its text and a PNG of the page at 3× (216 dpi), as a scanner would see paper.
 */
async function readPdf(
  page: Page,
  pdf: Buffer,
): Promise<{ text: string; png: PNG; size: number[] }> {
  const context = page.context();
  const reader = await context.newPage();
  await reader.route('http://pdf-reader.test/**', async (route) => {
    const name = new URL(route.request().url()).pathname.slice(1);
    if (name === 'index.html') {
      await route.fulfill({
        contentType: 'text/html',
        body: '<!doctype html><canvas id="c"></canvas>',
      });
    } else {
      await route.fulfill({
        contentType: 'text/javascript',
        body: readFileSync(`${PDFJS_DIR}${name}`),
      });
    }
  });
  await reader.goto('http://pdf-reader.test/index.html');
  const result = await reader.evaluate(async (b64) => {
    const url: string = 'http://pdf-reader.test/pdf.mjs';
    const pdfjs = (await import(url)) as typeof PdfJs;
    pdfjs.GlobalWorkerOptions.workerSrc = 'http://pdf-reader.test/pdf.worker.mjs';
    const data = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const doc = await pdfjs.getDocument({ data }).promise;
    const first = await doc.getPage(1);
    const texts: string[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const content = await (await doc.getPage(n)).getTextContent();
      texts.push(content.items.map((i) => ('str' in i ? i.str : '')).join(' '));
    }
    const viewport = first.getViewport({ scale: 3 });
    const canvas = document.getElementById('c') as HTMLCanvasElement;
    canvas.width = viewport.width;
    canvas.height = viewport.height;
    await first.render({ canvas, viewport }).promise;
    return {
      text: texts.join('\n'),
      png: canvas.toDataURL('image/png'),
      size: first.view,
    };
  }, pdf.toString('base64'));
  await reader.close();
  const png = PNG.sync.read(Buffer.from(result.png.split(',')[1] ?? '', 'base64'));
  return { text: result.text.replace(/\s+/g, ' '), png, size: result.size };
}

/** Decodes the QR inside a region of the rendered page (points from the top-left, scale 3). */
function qrIn(png: PNG, box: { x: number; y: number; w: number; h: number }, blank?: typeof box) {
  const out = new PNG({ width: png.width, height: png.height });
  png.data.copy(out.data);
  if (blank) {
    for (let y = blank.y * 3; y < (blank.y + blank.h) * 3; y++)
      for (let x = blank.x * 3; x < (blank.x + blank.w) * 3; x++)
        out.data.fill(255, (y * png.width + x) * 4, (y * png.width + x) * 4 + 4);
  }
  const crop = new PNG({ width: box.w * 3, height: box.h * 3 });
  PNG.bitblt(out, crop, box.x * 3, box.y * 3, box.w * 3, box.h * 3, 0, 0);
  return jsQR(new Uint8ClampedArray(crop.data), crop.width, crop.height)?.data ?? null;
}

/** Whether every font of the PDF carries its file (FontFile2: embedded TrueType). */
async function fontsEmbedded(pdf: Buffer): Promise<{ descriptors: number; embedded: number }> {
  const doc = await PDFDocument.load(pdf);
  let descriptors = 0;
  let embedded = 0;
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFDict)) continue;
    if (object.get(PDFName.of('Type'))?.toString() !== '/FontDescriptor') continue;
    descriptors++;
    if (object.has(PDFName.of('FontFile2'))) embedded++;
  }
  return { descriptors, embedded };
}

test('guide documents: PIX key in perfil, PDF with its QRs, PIX copia-e-cola, .ics and its cancellation', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const admin = await adminClient();
  const reset = () =>
    admin.from('medicos').update({ pix_chave: null, pix_cidade: null }).eq('id', ANA.medicoId);
  await reset();
  const doctorContext = await browser.newContext();
  const doctor = await doctorContext.newPage();
  const patientContext = await browser.newContext({
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  const page = await patientContext.newPage();
  try {
    // The doctor sets a PIX key in perfil; a wrong key is refused in Portuguese.
    await logInDoctor(doctor, 'ana');
    await doctor.goto('/medico/dashboard/perfil');
    const pix = doctor.getByRole('form', { name: 'Recebimento por PIX' });
    await pix.getByLabel('Tipo de chave').selectOption({ label: 'CPF' });
    await pix.getByLabel('Chave PIX').fill('123.456.789-00');
    await pix.getByRole('button', { name: 'Salvar PIX' }).click();
    await expect(pix.getByText('CPF inválido.')).toBeVisible();
    await expect(pix.getByText('Informe a cidade para o PIX.')).toBeVisible();
    await pix.getByLabel('Tipo de chave').selectOption({ label: 'E-mail' });
    await pix.getByLabel('Chave PIX').fill('Ana.Ribeiro@Clinica.Example');
    await pix.getByLabel('Cidade (aparece no PIX)').fill('São Paulo');
    await pix.getByRole('button', { name: 'Salvar PIX' }).click();
    await expect(doctor.getByText('Chave PIX atualizada!')).toBeVisible();
    await expect
      .poll(
        async () =>
          (
            await admin
              .from('medicos')
              .select('pix_chave, pix_cidade')
              .eq('id', ANA.medicoId)
              .single()
          ).data,
      )
      .toEqual({ pix_chave: 'ana.ribeiro@clinica.example', pix_cidade: 'São Paulo' });
    await shots(doctor, 'perfil-pix');

    // A patient books with the doctor and gets the guide.
    const account = await createPatientAccount('Conceição Guia Documentos', randomCpf());
    await logIn(page, account.email, account.password);
    await page.goto('/agendamentos');
    const choice = await firstFreeSlot(page);
    await slotButton(page, choice).click();
    await page.getByRole('button', { name: 'Confirmar e Gerar Guia' }).click();
    await expect(page.getByText('Agendamento Concluído!')).toBeVisible();
    const protocol = (await page.getByTestId('success-protocol').textContent())?.trim() ?? '';
    expect(protocol).toMatch(/^SJ-/);
    await expect(page.getByRole('button', { name: 'Baixar Guia' })).toBeVisible();
    await shots(page, 'sucesso');

    // The .ics from the success page: one event in São Paulo time, an alarm 1 h before.
    const ics = await downloaded(page, () =>
      page.getByRole('button', { name: 'Adicionar à agenda (.ics)' }).click(),
    );
    const lines = icsLines((await bytesOf(ics)).toString('utf8'));
    expect(icsValue(lines, 'BEGIN').filter((v) => v === 'VEVENT')).toHaveLength(1);
    expect(icsValue(lines, 'TZID')).toEqual(['America/Sao_Paulo']);
    expect(lines.some((l) => /^DTSTART;TZID=America\/Sao_Paulo:\d{8}T\d{6}$/.test(l))).toBe(true);
    expect(icsValue(lines, 'TRIGGER')).toEqual(['-PT1H']);
    expect(icsValue(lines, 'METHOD')).toEqual(['PUBLISH']);
    expect(icsValue(lines, 'STATUS')).toEqual(['CONFIRMED']);
    const uid = icsValue(lines, 'UID')[0];
    const description = icsValue(lines, 'DESCRIPTION')[0] ?? '';
    expect(description).toContain('Sala da consulta: o link será enviado pelo médico.');
    expect(description).toMatch(/Guia: http:\/\/127\.0\.0\.1:\d+\/guia\/[0-9a-f-]{36}/);
    const google = page.getByRole('link', { name: /Google Agenda/ });
    const googleUrl = new URL((await google.getAttribute('href')) ?? '');
    expect(googleUrl.hostname).toBe('calendar.google.com');
    expect(googleUrl.searchParams.get('ctz')).toBe('America/Sao_Paulo');

    // The guide: PIX copia-e-cola for the price, with the protocol as txid.
    await page.getByRole('link', { name: 'Ver Guia' }).click();
    await expect(page.getByRole('heading', { name: 'Pagamento via PIX' })).toBeVisible();
    await expect(page.getByText('O médico confirma o pagamento.', { exact: false })).toBeVisible();
    await page.getByRole('button', { name: 'Copiar código PIX' }).click();
    await expect(page.getByText('Código PIX copiado.')).toBeVisible();
    const code = await page.evaluate(() => navigator.clipboard.readText());
    const { data: medico } = await admin
      .from('medicos')
      .select('price_in_cents')
      .eq('id', ANA.medicoId)
      .single();
    const parsed = parsePix(code);
    if (hasError(parsed) || parsed.type !== PixElementType.STATIC)
      throw new Error(`not a static PIX: ${code}`);
    expect(parsed.pixKey).toBe('ana.ribeiro@clinica.example');
    expect(parsed.transactionAmount).toBe((medico?.price_in_cents ?? 0) / 100);
    expect(parsed.txid).toBe(protocol.replace(/-/g, ''));
    expect(parsed.merchantCity).toBe('SAO PAULO');
    expect(await decodeQr(page.getByTestId('pix-qr'))).toBe(code);
    await shots(page, 'guia');

    // The PDF from the guide page: A4, fonts embedded, its text and both QRs read back.
    const pdfDownload = await downloaded(page, () =>
      page.getByRole('button', { name: 'Baixar PDF' }).click(),
    );
    expect(pdfDownload.suggestedFilename()).toBe(`guia-${protocol}.pdf`);
    const pdf = await bytesOf(pdfDownload);
    const fonts = await fontsEmbedded(pdf);
    expect(fonts.descriptors).toBeGreaterThan(0);
    expect(fonts.embedded).toBe(fonts.descriptors);
    const read = await readPdf(page, pdf);
    writeFileSync(`${SCREENSHOTS}/documentos-pdf-pagina1.png`, PNG.sync.write(read.png));
    expect(read.size.map((n) => Math.round(n))).toEqual([0, 0, 595, 842]);
    for (const text of [
      'Guia de Atendimento',
      `Protocolo: ${protocol}`,
      'Dados do Paciente',
      'Conceição Guia Documentos',
      'Dados do Médico',
      'Dra. Ana Ribeiro',
      'Pagamento',
      'PIX copia e cola',
      'O médico confirma o pagamento.',
      'Política de cancelamento',
    ]) {
      expect(read.text).toContain(text);
    }
    const guideQrBox = { x: 595 - 48 - 125, y: 43, w: 130, h: 130 };
    expect(qrIn(read.png, guideQrBox)).toMatch(new RegExp(`^SAUDEJA:GUIA:${protocol}:`));
    expect(qrIn(read.png, { x: 0, y: 0, w: 595, h: 841 }, guideQrBox)).toBe(code);

    // The cards: the patient's and the doctor's offer the same documents.
    await page.goto('/paciente/dashboard/consultas');
    const card = page.getByTestId('appointment').filter({ hasText: protocol });
    await expect(card.getByRole('button', { name: 'Baixar PDF' })).toBeVisible();
    const cardPdf = await downloaded(page, () =>
      card.getByRole('button', { name: 'Baixar PDF' }).click(),
    );
    expect(cardPdf.suggestedFilename()).toBe(`guia-${protocol}.pdf`);
    await shots(page, 'cartoes-paciente');
    await doctor.goto('/medico/dashboard');
    await doctor.getByRole('searchbox').fill(protocol);
    const doctorCard = doctor.getByTestId('doctor-appointment').filter({ hasText: protocol });
    await expect(
      doctorCard.getByRole('button', { name: 'Adicionar à agenda (.ics)' }),
    ).toBeVisible();
    await shots(doctor, 'cartoes-medico');

    // Cancelled: the .ics withdraws the same event.
    const { error } = await admin
      .from('agendamentos')
      .update({ status: 'cancelado' })
      .eq('protocolo', protocol);
    expect(error).toBeNull();
    const history = page
      .getByRole('region', { name: 'Histórico' })
      .getByTestId('appointment')
      .filter({ hasText: protocol });
    await expect(history.getByRole('button', { name: 'Adicionar à agenda (.ics)' })).toBeVisible();
    await expect(history.getByRole('link', { name: /Google Agenda/ })).toHaveCount(0);
    const cancelled = await downloaded(page, () =>
      history.getByRole('button', { name: 'Adicionar à agenda (.ics)' }).click(),
    );
    const cancelLines = icsLines((await bytesOf(cancelled)).toString('utf8'));
    expect(icsValue(cancelLines, 'METHOD')).toEqual(['CANCEL']);
    expect(icsValue(cancelLines, 'STATUS')).toEqual(['CANCELLED']);
    expect(icsValue(cancelLines, 'UID')).toEqual([uid]);
  } finally {
    await reset();
    await doctorContext.close();
    await patientContext.close();
  }
});
