import { Role } from '@foodshare/domain';
import PDFDocument from 'pdfkit';
import QRCode, { type QRCodeSegment } from 'qrcode';

/** PostScript points per millimetre: a point is 1/72 inch, an inch 25.4 mm. */
const PT_PER_MM = 72 / 25.4;

/** The card format of docs/domain.md §3.7: 83 x 53.3 mm, a little smaller than a bank card. */
export const CARD_WIDTH_PT = 83 * PT_PER_MM;
export const CARD_HEIGHT_PT = 53.3 * PT_PER_MM;

const MARGIN = 8;
const HEADER_HEIGHT = 22;
const PHOTO = { width: 50, height: 62 };
const QR_SIZE = 62;
const GREEN = '#2e7d32';

/** The role as the card states it, in German like the platform. */
export const ROLE_TITLES: Record<Role, string> = {
  [Role.Foodsharer]: 'Foodsharer',
  [Role.Foodsaver]: 'Foodsaver',
  [Role.StoreManager]: 'Betriebsverantwortliche(r)',
  [Role.Ambassador]: 'Botschafter(in)',
  [Role.Orga]: 'Orga',
};

/** Image formats the PDF writer can embed; a photo in another format is left off the card. */
const EMBEDDABLE_PHOTOS = new Set(['image/png', 'image/jpeg']);

export interface PassportCardInput {
  userId: number;
  firstName: string;
  lastName: string;
  role: Role;
  /** dd.mm.yyyy */
  validFrom: string;
  /** dd.mm.yyyy */
  validUntil: string;
  /** The profile page the QR code links to. */
  profileUrl: string;
  photo: { mimeType: string; bytes: Buffer } | null;
}

// The PDF's standard fonts encode Windows-1252 only: other letters lose their accent or
// become "?", rather than turning into garbage glyphs.
const WIN_ANSI_EXTRAS = '€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ';

function printable(text: string): string {
  return [...text.normalize('NFC')]
    .map((char) => {
      const code = char.codePointAt(0) ?? 0;
      if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff)) return char;
      if (WIN_ANSI_EXTRAS.includes(char)) return char;
      const bare = char.normalize('NFD').replace(/\p{M}/gu, '');
      return /^[\x20-\x7e]+$/.test(bare) ? bare : '?';
    })
    .join('');
}

/**
 * The profile URL as QR segments: the address in byte mode and a trailing id of four digits or
 * more in numeric mode, which takes 10 bits per three digits instead of 24: in byte mode a
 * six-digit id can need a larger code, with smaller modules in the same square. qrcode finds this
 * split itself, but its search among all mixes of modes is slow (docs/benchmarks.md §3).
 */
export function profileUrlSegments(url: string): QRCodeSegment[] {
  const id = /^(.*\D)(\d{4,})$/.exec(url);
  if (!id) return [{ data: Buffer.from(url), mode: 'byte' }];
  return [
    { data: Buffer.from(id[1]!), mode: 'byte' },
    { data: id[2]!, mode: 'numeric' },
  ];
}

function drawQrCode(doc: PDFKit.PDFDocument, url: string, x: number, y: number): void {
  const { modules } = QRCode.create(profileUrlSegments(url), { errorCorrectionLevel: 'M' });
  // Vector modules stay sharp at any print size; the white square is the quiet zone.
  const module = QR_SIZE / (modules.size + 2);
  doc.rect(x, y, QR_SIZE, QR_SIZE).fill('#ffffff');
  // A row's run of dark modules is one rectangle, about half as many as one per dark module
  // (alice's card: 220 instead of 417), for pdfkit to write and compress.
  for (let row = 0; row < modules.size; row += 1) {
    let runStart = -1;
    for (let col = 0; col <= modules.size; col += 1) {
      const dark = col < modules.size && modules.get(row, col);
      if (dark && runStart < 0) runStart = col;
      if (!dark && runStart >= 0) {
        const left = x + (runStart + 1) * module;
        doc.rect(left, y + (row + 1) * module, (col - runStart) * module, module);
        runStart = -1;
      }
    }
  }
  doc.fill('#000000');
  doc.link(x, y, QR_SIZE, QR_SIZE, url);
}

function drawPhoto(doc: PDFKit.PDFDocument, photo: PassportCardInput['photo']): boolean {
  if (!photo || !EMBEDDABLE_PHOTOS.has(photo.mimeType)) return false;
  try {
    doc.image(photo.bytes, MARGIN, HEADER_HEIGHT + MARGIN, {
      fit: [PHOTO.width, PHOTO.height],
      align: 'center',
      valign: 'center',
    });
    return true;
  } catch {
    // Unreadable image bytes: the card is made without the photo, as when there is none.
    return false;
  }
}

/** The passport card: one page of 83 x 53.3 mm. */
export function renderPassportCard(input: PassportCardInput): Promise<Buffer> {
  const fullName = printable(`${input.firstName} ${input.lastName}`.trim());
  const doc = new PDFDocument({
    size: [CARD_WIDTH_PT, CARD_HEIGHT_PT],
    margin: 0,
    info: { Title: `Ausweis ${fullName}`, Subject: `ID ${input.userId}` },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  doc.rect(0, 0, CARD_WIDTH_PT, HEADER_HEIGHT).fill(GREEN);
  doc
    .fillColor('#ffffff')
    .font('Helvetica-Bold')
    .fontSize(10)
    .text('Foodsharing-Ausweis', MARGIN, 6.5, { lineBreak: false });

  const top = HEADER_HEIGHT + MARGIN;
  const hasPhoto = drawPhoto(doc, input.photo);
  const qrX = CARD_WIDTH_PT - MARGIN - QR_SIZE;
  const qrY = CARD_HEIGHT_PT - MARGIN - QR_SIZE;
  drawQrCode(doc, input.profileUrl, qrX, qrY);

  const textX = hasPhoto ? MARGIN + PHOTO.width + 6 : MARGIN;
  // No line breaks and an ellipsis: a long name never pushes text onto a second page.
  const line = { width: qrX - 6 - textX, lineBreak: false, ellipsis: true } as const;
  doc.fillColor('#000000').font('Helvetica-Bold').fontSize(10).text(fullName, textX, top, line);
  doc
    .font('Helvetica')
    .fontSize(8)
    .text(ROLE_TITLES[input.role], textX, top + 14, line);
  doc.fontSize(7);
  doc.text(`Gültig ab ${input.validFrom}`, textX, top + 32, line);
  doc.text(`Gültig bis ${input.validUntil}`, textX, top + 42, line);
  doc
    .font('Helvetica-Bold')
    .fontSize(8)
    .text(`ID ${input.userId}`, textX, top + 56, line);
  doc.end();
  return done;
}
