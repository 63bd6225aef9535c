import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { profileUrlSegments } from './passport-card.ts';

/** pdfkit's current font of a document, with the parsed metrics it measures text by. */
function metricsOf(doc: PDFKit.PDFDocument, font: string): unknown {
  doc.font(font);
  return (doc as unknown as { _font: { font: unknown } })._font.font;
}

// patches/pdfkit@0.20.2.patch: parsing a standard font's metrics (thousands of kerning pairs)
// for every document was costly (docs/benchmarks.md §3).
describe('the passport card: pdfkit patch', () => {
  it('parses each standard font once, for every document of the process', () => {
    const first = new PDFDocument();
    const second = new PDFDocument();
    for (const font of ['Helvetica', 'Helvetica-Bold']) {
      expect(metricsOf(second, font)).toBe(metricsOf(first, font));
    }
    expect(metricsOf(first, 'Helvetica')).not.toBe(metricsOf(first, 'Helvetica-Bold'));
  });

  it('measures text with its kerning alike in every document', () => {
    const width = (doc: PDFKit.PDFDocument, text: string) =>
      doc.font('Helvetica-Bold').fontSize(10).widthOfString(text);
    const [first, second] = [new PDFDocument(), new PDFDocument()];
    expect(width(second, 'AVATAR Wolf')).toBe(width(first, 'AVATAR Wolf'));
    // "AV" is a kerned pair of Helvetica-Bold: the shared metrics still bring the two closer.
    expect(width(second, 'AV')).toBeLessThan(width(first, 'A') + width(first, 'V'));
  });
});

describe('the passport card: QR segments of the profile URL', () => {
  const urls = [
    'https://foodshare.example.org/profile/2',
    'https://foodshare.example.org/profile/1234',
    'https://foodshare.example.org/profile/123456',
    'http://127.0.0.1:3000/profile/9876543',
    'https://sub.example.org/fs/profile/20000001',
  ];

  it.for(urls)('encodes %s whole, in a code no larger than qrcode would choose', (url) => {
    const segments = profileUrlSegments(url);
    expect(segments.map(({ data }) => data.toString()).join('')).toBe(url);
    const ours = QRCode.create(segments, { errorCorrectionLevel: 'M' });
    const searched = QRCode.create(url, { errorCorrectionLevel: 'M' });
    expect(ours.version).toBeLessThanOrEqual(searched.version);
  });

  it('puts a long trailing id in numeric mode, where byte mode needs a larger code', () => {
    const url = 'https://foodshare.example.org/profile/123456';
    const bytesOnly = QRCode.create([{ data: Buffer.from(url), mode: 'byte' }], {
      errorCorrectionLevel: 'M',
    });
    const ours = QRCode.create(profileUrlSegments(url), { errorCorrectionLevel: 'M' });
    expect(ours.version).toBeLessThan(bytesOnly.version);
  });
});
