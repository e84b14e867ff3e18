import { crc32, deflateSync } from 'node:zlib';

/** Size of the demo signature, px (about the shape a signature pad exports). */
const WIDTH = 240;
const HEIGHT = 80;

const chunk = (type: string, data: Buffer): Buffer => {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
};

/**
 * A drawn-looking signature as a PNG (dark ink on white, 8-bit greyscale), for the demo
 * customers' consent records: a real PNG like the signature pad's, so the demo shows a signature
 * rather than an empty box. `seed` varies the stroke between customers.
 */
export const demoSignaturePng = (seed = 1): Uint8Array => {
  const pixels = Buffer.alloc(WIDTH * HEIGHT, 255);
  const ink = (x: number, y: number) => {
    for (let dx = -1; dx <= 1; dx += 1) {
      for (let dy = -1; dy <= 1; dy += 1) {
        const px = Math.round(x) + dx;
        const py = Math.round(y) + dy;
        if (px >= 0 && px < WIDTH && py >= 0 && py < HEIGHT) pixels[py * WIDTH + px] = 30;
      }
    }
  };
  // A looping cursive stroke, then an underline.
  for (let t = 0; t <= 1; t += 0.0005) {
    const x = 20 + 190 * t + 10 * Math.sin(t * Math.PI * (10 + seed));
    const y = 38 + 16 * Math.sin(t * Math.PI * (6 + seed)) * Math.cos(t * Math.PI * 1.5);
    ink(x, y);
  }
  for (let x = 30; x <= 200; x += 0.5) ink(x, 64 + 2 * Math.sin(x / 25));
  const rows = Buffer.alloc((WIDTH + 1) * HEIGHT);
  for (let y = 0; y < HEIGHT; y += 1) {
    rows[y * (WIDTH + 1)] = 0; // filter: none
    pixels.copy(rows, y * (WIDTH + 1) + 1, y * WIDTH, (y + 1) * WIDTH);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(WIDTH, 0);
  header.writeUInt32BE(HEIGHT, 4);
  header.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale, deflate, no interlace
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', header),
      chunk('IDAT', deflateSync(rows)),
      chunk('IEND', Buffer.alloc(0)),
    ]),
  );
};
