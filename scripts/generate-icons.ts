import { deflateSync } from 'node:zlib';
import { writeFileSync } from 'node:fs';

/**
 * Draws the PWA icons (the brand's white cross on teal) straight into PNG files with nothing
 * but zlib, so the icons are reproducible without an image toolchain:
 * `npx tsx scripts/generate-icons.ts`.
 */

const TEAL = [0x0f, 0x76, 0x6e] as const;
const WHITE = [0xff, 0xff, 0xff] as const;
const SUPERSAMPLE = 4;

type Shape = { rounded: boolean; crossSize: number };

function insideRoundedSquare(x: number, y: number, radius: number): boolean {
  const cx = Math.min(Math.max(x, radius), 1 - radius);
  const cy = Math.min(Math.max(y, radius), 1 - radius);
  return (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2;
}

/** A plus sign centered in the unit square; `size` is its width as a fraction of the icon. */
function insideCross(x: number, y: number, size: number): boolean {
  const half = size / 2;
  const arm = size / 6;
  const dx = Math.abs(x - 0.5);
  const dy = Math.abs(y - 0.5);
  return (dx <= arm && dy <= half) || (dy <= arm && dx <= half);
}

function render(size: number, shape: Shape): Buffer {
  const pixels = Buffer.alloc(size * size * 4);
  const samples = SUPERSAMPLE * SUPERSAMPLE;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let background = 0;
      let cross = 0;
      for (let sy = 0; sy < SUPERSAMPLE; sy++) {
        for (let sx = 0; sx < SUPERSAMPLE; sx++) {
          const x = (px + (sx + 0.5) / SUPERSAMPLE) / size;
          const y = (py + (sy + 0.5) / SUPERSAMPLE) / size;
          if (shape.rounded ? insideRoundedSquare(x, y, 0.22) : true) background++;
          if (insideCross(x, y, shape.crossSize)) cross++;
        }
      }
      const alpha = background / samples;
      const mix = cross / samples;
      const offset = (py * size + px) * 4;
      for (let c = 0; c < 3; c++) {
        pixels[offset + c] = Math.round(TEAL[c]! * (1 - mix) + WHITE[c]! * mix);
      }
      pixels[offset + 3] = Math.round(alpha * 255);
    }
  }
  return pixels;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function encodePng(size: number, rgba: Buffer): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    rows[y * (size * 4 + 1)] = 0; // filter: none
    rgba.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const ICONS: { file: string; size: number; shape: Shape }[] = [
  { file: 'pwa-192x192.png', size: 192, shape: { rounded: true, crossSize: 0.56 } },
  { file: 'pwa-512x512.png', size: 512, shape: { rounded: true, crossSize: 0.56 } },
  // Maskable icons are cropped to a circle of 80 % diameter: full bleed, cross well inside.
  { file: 'maskable-512x512.png', size: 512, shape: { rounded: false, crossSize: 0.42 } },
  // iOS draws its own rounded corners and shows transparency as black.
  { file: 'apple-touch-icon.png', size: 180, shape: { rounded: false, crossSize: 0.5 } },
  { file: 'favicon-32x32.png', size: 32, shape: { rounded: true, crossSize: 0.6 } },
];

/** An .ico holding one PNG image (ICONDIR + one ICONDIRENTRY), which every browser reads. */
function encodeIco(size: number, png: Buffer): Buffer {
  const header = Buffer.alloc(6 + 16);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // type: icon
  header.writeUInt16LE(1, 4); // one image
  header[6] = size % 256; // width (0 = 256)
  header[7] = size % 256; // height
  header.writeUInt16LE(1, 10); // colour planes
  header.writeUInt16LE(32, 12); // bits per pixel
  header.writeUInt32LE(png.length, 14);
  header.writeUInt32LE(header.length, 18);
  return Buffer.concat([header, png]);
}

for (const icon of ICONS) {
  const target = new URL(`../public/${icon.file}`, import.meta.url);
  const png = encodePng(icon.size, render(icon.size, icon.shape));
  writeFileSync(target, png);
  process.stdout.write(`public/${icon.file}\n`);
  // Browsers and crawlers ask for /favicon.ico whatever the page declares.
  if (icon.file === 'favicon-32x32.png') {
    writeFileSync(new URL('../public/favicon.ico', import.meta.url), encodeIco(icon.size, png));
    process.stdout.write('public/favicon.ico\n');
  }
}
