import { crc32, deflateSync } from 'node:zlib';

const SIZE = 96;

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/**
 * A small PNG (a light disc on a coloured square), drawn here so that the demo avatar is a
 * real image without a binary file in the repository. Same colour, same bytes.
 */
export function demoAvatarPng(rgb: readonly [number, number, number]): Buffer {
  const rows: Buffer[] = [];
  const centre = (SIZE - 1) / 2;
  for (let y = 0; y < SIZE; y += 1) {
    const row = Buffer.alloc(1 + SIZE * 3);
    for (let x = 0; x < SIZE; x += 1) {
      const inside = (x - centre) ** 2 + (y - centre) ** 2 <= (SIZE * 0.3) ** 2;
      const [r, g, b] = inside ? [250, 245, 230] : rgb;
      row.writeUInt8(r, 1 + x * 3);
      row.writeUInt8(g, 2 + x * 3);
      row.writeUInt8(b, 3 + x * 3);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(SIZE, 0);
  header.writeUInt32BE(SIZE, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(2, 9); // colour type: truecolour
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
