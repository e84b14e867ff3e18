import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { TCertificateLanguage } from '@kisht/domain/plans/warranty.schema';
import { CERTIFICATE_TEXTS } from './certificate-texts';

/** What a certificate shows, already formatted for print (dates DD-MM-YYYY, price in ₹). */
export type TCertificateContent = {
  language: TCertificateLanguage;
  companyName: string;
  certificateNumber: string;
  customerName: string;
  mobile: string;
  product: string;
  imei: string;
  planName: string;
  termStart: string;
  termEnd: string;
  price: string;
  seller: string;
  issuedOn: string;
};

const require = createRequire(import.meta.url);

/**
 * The Noto family of each language's script (from the @expo-google-fonts packages, which ship the
 * full Google Fonts TTFs: each Indic family also has Latin, digits and ₹, so one font prints a
 * whole certificate). pdfkit shapes them through fontkit (conjuncts, vowel signs).
 */
const FONT_FAMILY: Record<TCertificateLanguage, string> = {
  en: 'NotoSans',
  sp: 'NotoSans',
  hn: 'NotoSansDevanagari',
  mr: 'NotoSansDevanagari',
  gj: 'NotoSansGujarati',
  bd: 'NotoSansBengali',
  kn: 'NotoSansKannada',
  tg: 'NotoSansTelugu',
  tm: 'NotoSansTamil',
  pp: 'NotoSansGurmukhi',
};

const fontCache = new Map<string, Buffer>();

/** The TTF bytes of a family's weight, read once per process. */
const fontBytes = (family: string, weight: '400Regular' | '700Bold'): Buffer => {
  const packageName = family
    .replace(/^NotoSans/, 'noto-sans')
    .replace(/([A-Z])/g, (letter) => `-${letter.toLowerCase()}`);
  const file = `@expo-google-fonts/${packageName}/${weight}/${family}_${weight}.ttf`;
  let bytes = fontCache.get(file);
  if (!bytes) {
    bytes = readFileSync(require.resolve(file));
    fontCache.set(file, bytes);
  }
  return bytes;
};

const PAGE_MARGIN = 50;
const INK = '#1b2430';
const MUTED = '#5b6675';
const ACCENT = '#1565c0';

/**
 * Renders an extended-warranty certificate as a one-page A4 PDF in the content's language. The
 * certificate number is also the document's subject, so a reader (or a test) finds it without
 * extracting text.
 */
export const renderCertificatePdf = async (content: TCertificateContent): Promise<Buffer> => {
  // Loaded on the first certificate, not with the app: pdfkit and fontkit take ~0.6 s to import.
  const { default: PDFDocument } = await import('pdfkit');
  const texts = CERTIFICATE_TEXTS[content.language];
  const family = FONT_FAMILY[content.language];
  const doc = new PDFDocument({
    size: 'A4',
    margin: PAGE_MARGIN,
    info: {
      Title: `${CERTIFICATE_TEXTS.en.title} ${content.certificateNumber}`,
      Subject: content.certificateNumber,
      Author: content.companyName,
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.registerFont('regular', fontBytes(family, '400Regular'));
  doc.registerFont('bold', fontBytes(family, '700Bold'));

  const width = doc.page.width - 2 * PAGE_MARGIN;
  doc
    .lineWidth(2)
    .strokeColor(ACCENT)
    .rect(PAGE_MARGIN - 20, PAGE_MARGIN - 20, width + 40, doc.page.height - 2 * PAGE_MARGIN + 40)
    .stroke();
  doc.font('bold').fontSize(20).fillColor(ACCENT).text(content.companyName, { align: 'center', width });
  doc.moveDown(0.3);
  doc.font('bold').fontSize(18).fillColor(INK).text(texts.title, { align: 'center', width });
  doc.moveDown(0.2);
  doc
    .font('regular')
    .fontSize(12)
    .fillColor(MUTED)
    .text(`${texts.certificateNumber}: ${content.certificateNumber}`, { align: 'center', width });
  doc.moveDown(1);

  const rows: [string, string][] = [
    [texts.customer, content.customerName],
    [texts.mobile, content.mobile],
    [texts.product, content.product],
    [texts.imei, content.imei],
    [texts.plan, content.planName],
    [texts.termStart, content.termStart],
    [texts.termEnd, content.termEnd],
    [texts.price, content.price],
    [texts.seller, content.seller],
    [texts.issuedOn, content.issuedOn],
  ];
  const labelWidth = width * 0.4;
  const valueX = PAGE_MARGIN + labelWidth + 10;
  const valueWidth = width - labelWidth - 10;
  for (const [label, value] of rows) {
    const top = doc.y;
    doc.font('regular').fontSize(12).fillColor(MUTED).text(label, PAGE_MARGIN, top, { width: labelWidth });
    const labelBottom = doc.y;
    doc
      .font('bold')
      .fontSize(12)
      .fillColor(INK)
      .text(value || '—', valueX, top, { width: valueWidth });
    const bottom = Math.max(labelBottom, doc.y) + 6;
    doc
      .lineWidth(0.5)
      .strokeColor('#d0d7de')
      .moveTo(PAGE_MARGIN, bottom - 3)
      .lineTo(PAGE_MARGIN + width, bottom - 3)
      .stroke();
    doc.y = bottom;
  }
  doc.moveDown(1.5);
  doc.font('regular').fontSize(11).fillColor(INK).text(texts.note, PAGE_MARGIN, doc.y, { width });
  doc.end();
  return done;
};
